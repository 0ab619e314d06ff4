// The report's compact timeline of a trial, derived from its record: one event per operation, crash point, kill, exit, restart and write.
import { MAX_TRIAL_EVENTS, type TrialEvent, type TrialEventKind } from '../../reports/schema.js';
import type { RecordEntry } from './trial-record.js';
import { maskText } from '../../shared/secrets/mask.js';

/** The bounded timeline: past `max` events the middle is elided, keeping kills, exits, restarts and crash points first. */
export function timelineOf(entries: readonly RecordEntry[], max = MAX_TRIAL_EVENTS): TrialEvent[] {
  const pending = new Map<string, Map<number, string>>();
  const events: TrialEvent[] = [];
  for (const entry of entries) {
    const event = toEvent(entry, pending);
    if (event !== null) events.push(event);
  }
  return bound(events, max);
}

// Routine steps may be elided from a long trial; these explain what happened and are kept while they fit.
const STRUCTURAL = new Set<TrialEventKind>(['start', 'exit', 'kill', 'restart', 'crashpoint', 'error', 'invalid', 'disclosure']);

type Fields = Partial<Omit<TrialEvent, 't' | 'kind'>>;

function toEvent(e: RecordEntry, pending: Map<string, Map<number, string>>): TrialEvent | null {
  const ev = (kind: TrialEventKind, fields: Fields): TrialEvent => ({ t: Math.round(e.t * 10) / 10, kind, driver: null, seq: null, name: null, detail: null, ...fields });
  switch (e.kind) {
    case 'start':
      return ev('start', { driver: e.driver, detail: e.pid === null ? null : `pid ${e.pid}` });
    case 'exit':
      return ev('exit', { driver: e.driver, name: e.killedByHarness ? 'killed by the harness' : 'exited by itself', detail: e.signal ?? `exit code ${String(e.exitCode)}` });
    case 'kill':
      return ev('kill', { driver: e.driver, seq: e.seq, name: e.point, detail: `${e.signal ?? 'no signal'}${e.planned === e.point ? '' : ` (planned ${e.planned})`}` });
    case 'restart':
      return ev('restart', { driver: e.driver });
    case 'target':
      // Every write is preceded by its attempt; the attempt alone adds nothing to the picture.
      return e.entry === 'attempt' ? null : ev('target', { name: e.target, detail: `tier ${e.tier} ${e.entry}${e.generation > 0 ? ` (generation ${e.generation})` : ''}` });
    case 'disclosure':
      return ev('disclosure', { driver: e.driver, detail: `${e.count} disclosed` });
    case 'wire':
      return wireEvent(e, pending, (kind, fields) => ev(kind, { driver: e.driver, seq: e.seq, ...fields }));
  }
}

function wireEvent(e: Extract<RecordEntry, { kind: 'wire' }>, pending: Map<string, Map<number, string>>, ev: (kind: TrialEventKind, fields: Fields) => TrialEvent): TrialEvent {
  const ops = pending.get(e.driver) ?? new Map<number, string>();
  pending.set(e.driver, ops);
  const msg = parse(e.line);
  // Never the line's text: it may hold secrets, and the report must not.
  if (msg === null) return ev('invalid', { detail: 'not a JSON object' });
  if (e.direction === 'send') {
    if (msg['type'] === 'request' && typeof msg['op'] === 'string') {
      if (typeof msg['id'] === 'number') ops.set(msg['id'], msg['op']);
      return ev('request', { name: msg['op'] });
    }
    return ev('resume', {});
  }
  if (msg['type'] === 'crashpoint') return ev('crashpoint', { name: typeof msg['point'] === 'string' ? msg['point'].slice(0, 120) : null });
  if (msg['type'] === 'response' && typeof msg['id'] === 'number') {
    const op = ops.get(msg['id']) ?? null;
    ops.delete(msg['id']);
    if (msg['ok'] === true) return ev('result', { name: op, detail: summarize(msg['result']) });
    const error = msg['error'] as { code?: unknown; message?: unknown } | undefined;
    return ev('error', { name: op, detail: errorDetail(error?.code, error?.message) });
  }
  return ev('invalid', { detail: 'not a protocol message' });
}

// The verdict-like field of a result, when it has one: enough to read the timeline without the transcript.
function summarize(result: unknown): string | null {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  const r = result as Record<string, unknown>;
  const parts = ['verdict', 'decision', 'state', 'code'].map((k) => r[k]).filter((v): v is string => typeof v === 'string' && /^[a-z_:-]{1,40}$/.test(v));
  return parts.length === 0 ? null : parts.join(' ');
}

function parse(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function bound(events: TrialEvent[], max: number): TrialEvent[] {
  if (events.length <= max) return events;
  const head = Math.floor(max / 4);
  const tail = Math.floor(max / 4);
  const middle = events.slice(head, events.length - tail);
  // Each kept middle event may need an elision marker before it, and one more may close the middle.
  const room = Math.floor((max - head - tail - 1) / 2);
  const kept = new Set(middle.filter((e) => STRUCTURAL.has(e.kind)).slice(0, room));
  const out = events.slice(0, head);
  let dropped: TrialEvent[] = [];
  const flush = (): void => {
    if (dropped.length > 0) out.push({ t: dropped[0]!.t, kind: 'elided', driver: null, seq: null, name: null, detail: `${dropped.length} events` });
    dropped = [];
  };
  for (const e of middle) {
    if (kept.has(e)) {
      flush();
      out.push(e);
    } else {
      dropped.push(e);
    }
  }
  flush();
  return [...out, ...events.slice(events.length - tail)];
}

// The journal's own words beside its code (what a reader of a failure needs), with any canary masked: a report holds
// no secret by value, and a message may quote the arguments it refused.
function errorDetail(code: unknown, message: unknown): string | null {
  if (typeof code !== 'string') return null;
  const words = typeof message === 'string' ? maskText(message).replace(/\s+/g, ' ').trim() : '';
  return words === '' ? code.slice(0, 60) : `${code.slice(0, 60)}: ${words.length > 160 ? `${words.slice(0, 159)}…` : words}`;
}
