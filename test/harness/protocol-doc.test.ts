// docs/protocol.md's examples are real: each one validates against the zod schemas, and every operation has one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Capabilities, CrashpointMessage, Fault, OperationNames, Operations, Request, Response, ResumeMessage } from '../../shared/protocol/schemas.js';
import { listScenarios } from '../../scenarios/catalog.js';
import type { OperationName } from '../../shared/protocol/schemas.js';
import { root } from './helpers.js';

interface Example {
  tag: string;
  line: number;
  json: unknown;
}

const doc = readFileSync(join(root, 'docs', 'protocol.md'), 'utf8');
const examples = extractExamples(doc);

describe('docs/protocol.md', () => {
  it('has tagged examples, and every ```json block is tagged', () => {
    const jsonBlocks = doc.split('\n').filter((line) => line.trim() === '```json').length;
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.length).toBe(jsonBlocks);
  });

  it.each(examples.map((e) => [`${e.tag} (line ${e.line})`, e] as const))('example %s validates against the schemas', (_name, example) => {
    const [subject, kind] = example.tag.split(' ');
    if (subject === 'crashpoint') return void CrashpointMessage.parse(example.json);
    if (subject === 'resume') return void ResumeMessage.parse(example.json);
    expect(OperationNames).toContain(subject);
    const op = subject as OperationName;
    if (kind === 'request') {
      const request = Request.parse(example.json);
      expect(request.op).toBe(op);
      Operations[op].params.parse(request.params);
    } else {
      expect(kind).toBe('response');
      const response = Response.parse(example.json);
      if (response.ok) Operations[op].result.parse(response.result);
    }
  });

  it('shows a request and a successful response for every operation', () => {
    const missing: string[] = [];
    for (const op of OperationNames) {
      if (!examples.some((e) => e.tag === `${op} request`)) missing.push(`${op} request`);
      const ok = examples.some((e) => e.tag === `${op} response` && (e.json as { ok?: unknown }).ok === true);
      if (!ok) missing.push(`${op} response`);
    }
    expect(missing).toEqual([]);
  });

  it('shows the crash point handshake and an error response', () => {
    expect(examples.some((e) => e.tag === 'crashpoint')).toBe(true);
    expect(examples.some((e) => e.tag === 'resume')).toBe(true);
    expect(examples.some((e) => (e.json as { ok?: unknown }).ok === false)).toBe(true);
  });
});

describe('docs/protocol.md, what a journal author must know', () => {
  const tableCells = (heading: string): string => doc.slice(doc.indexOf(heading), doc.indexOf('\n## ', doc.indexOf(heading) + 1));
  it('documents every capability field', () => {
    const table = tableCells('## Capabilities');
    expect(Object.keys(Capabilities.shape).filter((k) => !table.includes(`| \`${k}\` |`))).toEqual([]);
  });

  it('lists every crash point and fault a scenario needs, and every fault there is', () => {
    const table = tableCells('### Crash points and faults a scenario can use');
    const needs = new Set(listScenarios().flatMap((s) => s.needs).filter((n) => n.startsWith('point:') || n.startsWith('fault:')));
    for (const fault of Fault.options) needs.add(`fault:${fault}`);
    expect([...needs].filter((n) => !table.includes(`\`${n.slice(n.indexOf(':') + 1)}\``))).toEqual([]);
  });
});

/** Every ```json block preceded by `<!-- example: <tag> -->`, holding exactly one message. */
function extractExamples(text: string): Example[] {
  const lines = text.split('\n');
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const tag = /^<!-- example: (.+?) -->$/.exec(lines[i]?.trim() ?? '');
    if (tag === null) continue;
    let start = i + 1;
    while (lines[start]?.trim() === '') start++;
    if (lines[start]?.trim() !== '```json') throw new Error(`docs/protocol.md:${i + 1}: example tag not followed by a json block`);
    const end = lines.findIndex((line, index) => index > start && line.trim() === '```');
    const body = lines.slice(start + 1, end).join('\n');
    found.push({ tag: tag[1] ?? '', line: start + 1, json: JSON.parse(body) as unknown });
  }
  return found;
}
