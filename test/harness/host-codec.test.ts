// The host's zod-free codec stands for the zod schemas exactly: same ops, codes and shapes, same verdict and field on bad params.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatPath } from '../../harness/driver/decode.js';
import { hostScriptPath } from '../../harness/driver/launch.js';
import { HOST_BUNDLE_INPUTS } from '../../harness/driver/host-bundle.js';
import { referenceAdapterPath } from '../../runner/run-conformance.js';
import { checkParams, decodeHostLine, HOST_ERROR_CODES, HOST_PARAMS, HOST_PROTOCOL_VERSION } from '../../harness/driver/host-codec.js';
import type { Shape } from '../../harness/driver/host-shape.js';
import { JournalErrorCode, OperationNames, Operations, PROTOCOL_VERSION } from '../../shared/protocol/schemas.js';
import type { OperationName } from '../../shared/protocol/schemas.js';
import { fixtures, root } from './helpers.js';

describe('host codec', () => {
  it('knows exactly the protocol’s operations, error codes and version', () => {
    expect(Object.keys(HOST_PARAMS).sort()).toEqual([...OperationNames].sort());
    expect([...HOST_ERROR_CODES].sort()).toEqual([...JournalErrorCode.options].sort());
    expect(HOST_PROTOCOL_VERSION).toBe(PROTOCOL_VERSION);
  });

  it.each(OperationNames.map((op) => [op]))('%s params: the shape equals the zod schema', (op) => {
    const schema = z.toJSONSchema(Operations[op].params, { unrepresentable: 'any' }) as JsonSchema;
    expect(normalize(HOST_PARAMS[op]!)).toEqual(fromJsonSchema(schema, schema.$defs ?? {}));
  });

  it('agrees with zod on every one-field mutation of the documented requests, naming the same field', () => {
    let compared = 0;
    for (const { op, params } of documentedRequests()) {
      expect(checkParams(op, params), `${op}: the documented request`).toBeNull();
      for (const { label, value } of mutations(params)) {
        const zod = Operations[op].params.safeParse(value);
        const ours = checkParams(op, value);
        const where = `${op} with ${label}`;
        expect(ours === null, where).toBe(zod.success);
        if (!zod.success && ours !== null) expect(ours.path, where).toBe(formatPath('params', zod.error.issues[0]?.path ?? []) ?? 'params');
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('is all the host loads of the harness: serving the reference journal loads no zod', () => {
    const loaded = loadedBy(join(root, 'dist', 'reference-impl', 'adapter.js'));
    // Of node_modules, only the journal's own better-sqlite3 (which the trace sees now that it follows require()) and its hash.
    expect(loaded.filter((p) => p.includes('node_modules') && !p.startsWith('node_modules/better-sqlite3/') && !p.startsWith('node_modules/@noble/hashes/'))).toEqual([]);
    expect(loaded).toContain('node_modules/better-sqlite3/lib/index.js');
    const harness = loaded.filter((p) => p.startsWith('dist/harness/') || p.startsWith('dist/shared/')).sort();
    expect(harness).toEqual(['dist/harness/driver/host.bundle.cjs', 'dist/harness/journal-interface.js', 'dist/shared/canonical-json.js']);
    // The one-file host is built from the host's own modules and nothing else (no zod, nothing of the harness side).
    const inputs = JSON.parse(readFileSync(join(root, 'dist', 'harness', 'driver', HOST_BUNDLE_INPUTS), 'utf8')) as string[];
    expect(inputs).toEqual(['../secrets/impl-secrets.js', 'code-cache.js', 'host-args.js', 'host-codec.js', 'host-io.js', 'host-serve.js', 'host-shape.js', 'host.js']);
    expect(loaded.some((p) => p === 'dist/reference-impl/adapter.js')).toBe(true);
  });

  it('drivers of the reference journal load the host and one bundled module of the journal', () => {
    const adapter = referenceAdapterPath();
    expect(adapter.endsWith('dist/reference-impl/adapter.bundle.cjs')).toBe(true);
    const all = loadedBy(adapter);
    const loaded = all.filter((p) => p.startsWith('dist/'));
    expect(loaded.sort()).toEqual(['dist/harness/driver/host.bundle.cjs', 'dist/reference-impl/adapter.bundle.cjs']);
    // better-sqlite3's JavaScript comes bundled (its addon is not JavaScript): no file of its lib/ is loaded, nor any other package's.
    expect(all.filter((p) => !p.startsWith('dist/'))).toEqual([]);
    // Compiled from the code cache the build wrote beside it, which V8 took.
    expect(all.cached).toEqual(['dist/reference-impl/adapter.bundle.cjs']);
  });

  it('decodes envelopes: requests, resumes, answerable bad ops and lines it can only ignore', () => {
    expect(decodeHostLine('{"type":"request","id":3,"op":"files","params":{}}')).toEqual({ kind: 'request', id: 3, op: 'files', params: {} });
    expect(decodeHostLine('{"type":"resume","seq":9}')).toEqual({ kind: 'resume', seq: 9 });
    expect(decodeHostLine('{"type":"request","id":4,"op":"teleport","params":{}}')).toMatchObject({ kind: 'invalid', id: 4, field: 'op' });
    expect(decodeHostLine('{"type":"request","id":4,"op":"__proto__","params":{}}')).toMatchObject({ kind: 'invalid', field: 'op' });
    for (const line of ['not json', '[1]', '{"type":"request","id":0,"op":"files"}', '{"type":"response","id":1}', '{"type":"resume","seq":-1}']) {
      expect(decodeHostLine(line), line).toMatchObject({ kind: 'ignore' });
    }
  });
});

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: Array<string | number>;
  minLength?: number;
  minimum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

// zod's JSON Schema rendering, read back as the codec's shape vocabulary.
function fromJsonSchema(s: JsonSchema, defs: Record<string, JsonSchema>): Shape {
  if (s.$ref !== undefined) {
    const target = defs[s.$ref.replace('#/$defs/', '')];
    const kinds = (target?.anyOf ?? []).map((o) => o.type).sort();
    expect(kinds, `${s.$ref} is the JSON value union`).toEqual(['array', 'boolean', 'null', 'number', 'object', 'string']);
    return { t: 'json' };
  }
  if (s.oneOf !== undefined) {
    const key = Object.keys(s.oneOf[0]?.properties ?? {}).find((k) => s.oneOf!.every((o) => o.properties?.[k]?.const !== undefined));
    if (key === undefined) throw new Error('a oneOf without a discriminator');
    return { t: 'union', key, options: Object.fromEntries(s.oneOf.map((o) => [String(o.properties![key]!.const), fromJsonSchema(o, defs)])) };
  }
  if (s.anyOf !== undefined) {
    const nonNull = s.anyOf.filter((o) => o.type !== 'null');
    if (nonNull.length < s.anyOf.length && nonNull.length === 1) return { t: 'nullable', inner: fromJsonSchema(nonNull[0]!, defs) };
    if (s.anyOf.every((o) => o.const !== undefined)) return { t: 'enum', values: s.anyOf.map((o) => o.const as string | number) };
    throw new Error(`an anyOf the codec cannot express: ${JSON.stringify(s)}`);
  }
  if (Array.isArray(s.type)) {
    const inner = s.type.filter((t) => t !== 'null');
    if (inner.length === 1 && s.type.length === 2) return { t: 'nullable', inner: fromJsonSchema({ ...s, type: inner[0]! }, defs) };
  }
  if (s.const !== undefined) return { t: 'enum', values: [s.const as string] };
  if (s.enum !== undefined) return { t: 'enum', values: s.enum };
  switch (s.type) {
    case 'string':
      return s.minLength === undefined ? { t: 'string' } : { t: 'string', min: s.minLength };
    case 'integer':
      return s.minimum === undefined || s.minimum === -Number.MAX_SAFE_INTEGER ? { t: 'int' } : { t: 'int', min: s.minimum };
    case 'boolean':
      return { t: 'boolean' };
    case 'array':
      return { t: 'array', item: fromJsonSchema(s.items!, defs) };
    case 'object': {
      if (typeof s.additionalProperties === 'object') return { t: 'record', value: fromJsonSchema(s.additionalProperties, defs) };
      const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fromJsonSchema(v, defs)]));
      return { t: 'object', props, optional: Object.keys(props).filter((k) => !(s.required ?? []).includes(k)).sort() };
    }
  }
  throw new Error(`a schema the codec cannot express: ${JSON.stringify(s)}`);
}

function normalize(shape: Shape): Shape {
  switch (shape.t) {
    case 'object':
      return { t: 'object', props: Object.fromEntries(Object.entries(shape.props).map(([k, v]) => [k, normalize(v)])), optional: [...shape.optional].sort() };
    case 'union':
      return { t: 'union', key: shape.key, options: Object.fromEntries(Object.entries(shape.options).map(([k, v]) => [k, normalize(v)])) };
    case 'array':
      return { t: 'array', item: normalize(shape.item) };
    case 'record':
      return { t: 'record', value: normalize(shape.value) };
    case 'nullable':
      return { t: 'nullable', inner: normalize(shape.inner) };
    default:
      return shape;
  }
}

function documentedRequests(): Array<{ op: OperationName; params: unknown }> {
  const doc = readFileSync(join(root, 'docs', 'protocol.md'), 'utf8');
  const found: Array<{ op: OperationName; params: unknown }> = [];
  for (const match of doc.matchAll(/<!-- example: (\S+) request -->\s*```json\n([^\n]*)\n```/g)) {
    const request = JSON.parse(match[2]!) as { params: unknown };
    found.push({ op: match[1] as OperationName, params: request.params });
  }
  expect([...new Set(found.map((f) => f.op))].sort()).toEqual([...OperationNames].sort());
  return found;
}

// Every subtree deleted, and every subtree replaced by values of other kinds and by edge values of its own kind.
function mutations(value: unknown): Array<{ label: string; value: unknown }> {
  const out: Array<{ label: string; value: unknown }> = [];
  const visit = (node: unknown, path: Array<string | number>): void => {
    if (path.length > 0) {
      const replacements: unknown[] = [null, 'x', '', 7, -1, 1.5, true, [], {}];
      for (const r of replacements) if (!Object.is(r, node)) out.push({ label: `${path.join('.')} = ${JSON.stringify(r)}`, value: setAt(value, path, r) });
      if (typeof path[path.length - 1] === 'string') out.push({ label: `${path.join('.')} deleted`, value: setAt(value, path, undefined) });
    }
    if (Array.isArray(node)) node.forEach((child, i) => visit(child, [...path, i]));
    else if (typeof node === 'object' && node !== null) for (const [k, child] of Object.entries(node)) visit(child, [...path, k]);
  };
  visit(value, []);
  return out;
}

function setAt(root: unknown, path: Array<string | number>, replacement: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return copy;
}

// Every ES module file the host loads while answering hello for `adapter`, relative to the repository root.
function loadedBy(adapter: string): string[] & { cached: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ejc-host-modules-'));
  try {
    const trace = join(dir, 'modules.txt');
    // hello and an open: the journal loads its SQLite module at the first open.
    mkdirSync(join(dir, 'journal'));
    const hello = JSON.stringify({ type: 'request', id: 1, op: 'hello', params: {} });
    const open = JSON.stringify({ type: 'request', id: 2, op: 'open', params: { dir: join(dir, 'journal'), armedCrashPoints: [] } });
    const args = ['--import', join(fixtures, 'drivers', 'trace-modules.mjs'), hostScriptPath(), '--module', adapter];
    const out = execFileSync(process.execPath, args, { input: `${hello}\n${open}\n`, env: { ...process.env, EJC_TRACE_MODULES: trace } });
    const answers = out.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(answers).toMatchObject([{ id: 1, ok: true }, { id: 2, ok: true }]);
    const lines = readFileSync(trace, 'utf8').split('\n');
    const paths = (prefix: string): string[] => [...new Set(lines.filter((u) => u.startsWith(prefix)))].map((u) => relative(root, fileURLToPath(u.slice(prefix.length - 'file:'.length))));
    return Object.assign(paths('file:'), { cached: paths('v8cache:file:') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
