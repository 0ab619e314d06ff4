// The host driver's own command-line reader: the flags the harness passes, and a clear refusal of anything else.
import { describe, expect, it } from 'vitest';
import { parseHostArgs } from '../../harness/driver/host-args.js';

describe('parseHostArgs', () => {
  it('reads --module and repeated --option, as separate words or joined by =', () => {
    expect(parseHostArgs(['--module', '/a/j.cjs', '--option', 'tierMode=conservative', '--option=k=v'])).toEqual({ module: '/a/j.cjs', option: ['tierMode=conservative', 'k=v'] });
    expect(parseHostArgs(['--module=/a/j.cjs'])).toEqual({ module: '/a/j.cjs', option: [] });
    // The word after a flag is its value even when it starts with a dash: the harness wrote it.
    expect(parseHostArgs(['--option', '-k=v', '--module', 'j.js'])).toEqual({ module: 'j.js', option: ['-k=v'] });
  });

  it('names what is wrong: a missing module, a flag without its value, an unknown word', () => {
    expect(parseHostArgs([])).toBe('missing --module <path>');
    expect(parseHostArgs(['--module', ''])).toBe('missing --module <path>');
    expect(parseHostArgs(['--module'])).toBe('--module needs a value');
    expect(parseHostArgs(['--module', 'j.js', '--option'])).toBe('--option needs a value');
    expect(parseHostArgs(['--module', 'j.js', '--verbose'])).toBe('unknown argument "--verbose"');
    expect(parseHostArgs(['j.js'])).toBe('unknown argument "j.js"');
  });
});
