// Progress stays readable while scenarios run side by side: lines in completion order, the live line names every running one.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../bin/progress.js';
import type { ProgressEvent } from '../../runner/run-conformance.js';

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = { isTTY, columns: 200, write: (s: string) => ((text += s), true) } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

const EVENTS: ProgressEvent[] = [
  { kind: 'scenario-start', index: 1, total: 3, id: 'cp01.a' },
  { kind: 'scenario-start', index: 2, total: 3, id: 'sweep.b' },
  { kind: 'scenario-end', index: 1, total: 3, id: 'cp01.a', verdict: 'failed', durationMs: 500 },
  { kind: 'scenario-start', index: 3, total: 3, id: 'cp04.c' },
];

describe('progress with concurrent scenarios', () => {
  it('prints one line per finished scenario, numbered in completion order, in logs', () => {
    const { stream, text } = fakeStream(false);
    const progress = createProgress(stream, { CI: 'true' });
    for (const e of EVENTS) progress.onProgress(e);
    progress.onProgress({ kind: 'scenario-end', index: 2, total: 3, id: 'cp04.c', verdict: 'passed', durationMs: 300 });
    progress.finish();
    expect(text()).toBe('[1/3] cp01.a failed (0.5s)\n[2/3] cp04.c passed (0.3s)\n');
  });

  it('keeps one live line on a terminal that names every scenario still running', () => {
    const { stream, text } = fakeStream(true);
    const progress = createProgress(stream, {});
    for (const e of EVENTS) progress.onProgress(e);
    progress.finish();
    const lines = text().split('\r\x1b[2K').filter((l) => l !== '');
    expect(lines.at(-1)).toMatch(/^1\/3 done · \d+\.\ds · 1 failure\(s\) so far · running: sweep\.b, cp04\.c$/);
  });
});
