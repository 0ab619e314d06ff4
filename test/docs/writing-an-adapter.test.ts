// Runs every shell block of docs/writing-an-adapter.md, in order, in a consumer package that installed the tarball.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { createBareConsumer, INSTALL_COMMANDS, installAsTheGuideSays, REPO, type PackedConsumer } from '../package/packed-consumer.js';

/** A fenced block with the marker comment right above it. */
interface Block {
  readonly line: number;
  readonly lang: string;
  readonly body: string;
  readonly marker: { kind: 'test' | 'file'; spec: string } | null;
}

const guide = await readFile(join(REPO, 'docs', 'writing-an-adapter.md'), 'utf8');
const blocks = parseBlocks(guide);
const commands = blocks.filter((b) => b.marker?.kind === 'test');

let consumer: PackedConsumer | null = null;
afterAll(async () => {
  await consumer?.cleanup();
});

describe('docs/writing-an-adapter.md', () => {
  it('marks every shell block with a test and shows the minimal adapter verbatim', async () => {
    expect(blocks.filter((b) => b.lang === 'sh' && b.marker?.kind !== 'test').map((b) => b.line)).toEqual([]);
    const adapter = blocks.find((b) => b.marker?.kind === 'file' && b.marker.spec === 'my-adapter.mjs');
    expect(adapter?.body).toBe(await readFile(join(REPO, 'examples', 'minimal-adapter', 'adapter.mjs'), 'utf8'));
    expect(commands.length).toBeGreaterThanOrEqual(10);
  });

  it('runs in the GitHub Actions example only the ejc commands the tested blocks run', () => {
    const yaml = blocks.find((b) => b.lang === 'yaml');
    const runs = [...(yaml?.body ?? '').matchAll(/- run: (npx ejc .*)$/gm)].map((m) => m[1]!.replaceAll('${{ matrix.shard }}', '1'));
    expect(runs.length).toBeGreaterThanOrEqual(3);
    const tested = commands.map((b) => b.body).join('\n');
    for (const run of runs) expect(tested).toContain(run);
  });

  for (const block of blocks.filter((b) => b.marker !== null)) {
    const title = `line ${block.line}: ${block.marker!.kind} ${block.marker!.kind === 'file' ? block.marker!.spec : block.body.split('\n')[0]}`;
    it(title, async () => {
      if (block.marker!.spec === 'install') {
        // The route the guide tells is the route every packaged test takes, run here as written.
        expect(block.body).toBe(INSTALL_COMMANDS);
        consumer = await createBareConsumer();
        await installAsTheGuideSays(consumer, block.body);
        return;
      }
      if (consumer === null) throw new Error('the install block must come first');
      if (block.marker!.kind === 'file') {
        const path = join(consumer.path, block.marker!.spec);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, block.body);
        return;
      }
      await runCommandBlock(consumer, block);
    });
  }
});

async function runCommandBlock(consumer: PackedConsumer, block: Block): Promise<void> {
  const spec = parseSpec(block.marker!.spec);
  const r = await execa('sh', ['-e', '-c', block.body], { cwd: consumer.path, env: consumer.env, extendEnv: false, reject: false, stdin: 'ignore' });
  const context = `$ ${block.body}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  expect(r.exitCode, context).toBe(Number(spec.exit?.[0] ?? '0'));
  for (const text of spec.stdout ?? []) expect(r.stdout, context).toContain(text);
  for (const text of spec.stderr ?? []) expect(r.stderr, context).toContain(text);
}

// Fenced blocks, each with the `<!-- test: … -->` or `<!-- file: … -->` comment on the line above it.
function parseBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`unclosed code block at line ${i + 1}`);
    const m = i > 0 ? /^<!-- (test|file): (.*) -->$/.exec(lines[i - 1]!) : null;
    const marker = m ? { kind: m[1] as 'test' | 'file', spec: m[2]!.trim() } : null;
    out.push({ line: i + 1, lang: open[1]!, body: `${lines.slice(i + 1, end).join('\n')}\n`, marker });
    i = end;
  }
  return out;
}

// `exit=1 stdout="text" stdout="more"`: values are bare words or JSON strings; keys may repeat.
function parseSpec(spec: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of spec.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
    (out[m[1]!] ??= []).push(m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!);
  }
  return out;
}
