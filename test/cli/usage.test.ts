import { describe, expect, it } from 'vitest';
import { ejc } from './ejc-process.js';

describe('ejc usage', () => {
  it('prints help with the exit codes for the tool and each command', async () => {
    const top = await ejc(['--help']);
    expect(top.exitCode).toBe(0);
    expect(top.stdout).toMatch(/Commands:[\s\S]*verify[\s\S]*Exit codes:[\s\S]*3 {2}harness or usage error/);
    for (const command of ['run', 'list', 'explain', 'verify', 'merge', 'keygen', 'sign']) {
      const r = await ejc([command, '--help']);
      expect(r.exitCode, command).toBe(0);
      expect(r.stdout, command).toContain(`Usage: ejc ${command}`);
      expect(r.stdout, command).toContain('Exit codes:');
    }
  });

  it('exits 3 with the fix for an unknown flag, command or missing value', async () => {
    const flag = await ejc(['run', '--sed', '7']);
    expect(flag).toMatchObject({ exitCode: 3, stdout: '' });
    expect(flag.stderr).toContain('unknown flag --sed for ejc run (did you mean --seed?); see ejc run --help');
    const command = await ejc(['verfy', 'x.json']);
    expect(command.exitCode).toBe(3);
    expect(command.stderr).toContain('unknown command verfy (did you mean verify?)');
    const missing = await ejc(['run', '--seed']);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain("'--seed <value>' argument missing");
    const none = await ejc([]);
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toContain('Usage: ejc <command>');
  });

  it('refuses inconsistent run flags before starting anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['run', '--impl', 'a.js', '--cmd', 'b'], /give one of them/],
      [['run', '--cmd', 'b', '--impl-option', 'x=1'], /--impl-option configures an --impl adapter module/],
      [['run', '--impl', 'a.js', '--impl-option', 'novalue'], /key=value/],
      [['run', '--shard', '3/2'], /shard 3\/2 is out of range/],
      [['run', '--shard', 'two'], /--shard must look like i\/n/],
      [['run', '--seed=-1'], /--seed must be an integer from 0 to 4294967295/],
      [['run', '--timeout', '0'], /--timeout must be an integer from 1 to 2147483647/],
      [['run', '--keep', '--keep-failed'], /drop --keep-failed/],
      [['run', '--expect-failures', '/nonexistent/expect.txt'], /cannot read --expect-failures file/],
      [['run', 'extra'], /ejc run takes 0 argument\(s\), got 1 \(unexpected: extra\)/],
    ];
    for (const [args, message] of cases) {
      const r = await ejc(args);
      expect(r.exitCode, args.join(' ')).toBe(3);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('prints the harness version', async () => {
    const r = await ejc(['--version']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '0.1.0' });
  });
});
