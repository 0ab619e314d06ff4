// One trial's timeline as inline SVG (a lane per driver process, the world's target writes below) plus the same events as a table.
import { arr, esc, num, obj, str } from './html-parts.js';

interface Ev {
  readonly t: number;
  readonly kind: string;
  readonly driver: string | null;
  readonly seq: number | null;
  readonly name: string | null;
  readonly detail: string | null;
}

const STEP = 24;
const LANE = 30;
const TOP = 136;
const AXIS = 22;
const LEFT = 120;

/** The timeline of a trial's `events`, or a note that the report holds none. */
export function timelineHtml(events: unknown, trialId: string): string {
  const evs = arr(events).map(readEvent).filter((e): e is Ev => e !== null);
  if (evs.length === 0) return '<p class="muted">No timeline: this report holds no events for the trial (it predates timelines, or nothing ran).</p>';
  return `<figure class="timeline" aria-label="${esc(`timeline of ${trialId}`)}">${svg(evs)}<figcaption>${legend()}</figcaption></figure>${eventTable(evs)}`;
}

function readEvent(value: unknown): Ev | null {
  const o = obj(value);
  const kind = str(o['kind']);
  if (kind === '') return null;
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return { t: num(o['t']) ?? 0, kind, driver: text(o['driver']), seq: num(o['seq']), name: text(o['name']), detail: text(o['detail']) };
}

function svg(evs: Ev[]): string {
  const drivers = [...new Set(evs.map((e) => e.driver).filter((d): d is string => d !== null))];
  const hasWorld = evs.some((e) => e.kind === 'target');
  const spans = drivers.map((d) => {
    const exit = evs.findIndex((e) => e.driver === d && e.kind === 'exit');
    return { driver: d, from: evs.findIndex((e) => e.driver === d), to: exit < 0 ? evs.length - 1 : exit, killed: evs.some((e) => e.driver === d && e.kind === 'kill') };
  });
  const { lanes, laneOf } = packLanes(spans);
  if (hasWorld) lanes.push('targets');
  const laneY = (driver: string | null): number => TOP + ((driver === null ? lanes.length - 1 : laneOf.get(driver) ?? 0) + 0.5) * LANE;
  const x = (i: number): number => LEFT + i * STEP + STEP / 2;
  const width = LEFT + evs.length * STEP + 40;
  const height = TOP + lanes.length * LANE + AXIS;
  const parts: string[] = [];
  lanes.forEach((lane, i) => {
    const y = TOP + i * LANE;
    parts.push(`<rect class="lane${i % 2}" x="0" y="${y}" width="${width}" height="${LANE}"/>`, `<text class="lane-label" x="8" y="${y + LANE / 2 + 4}">${esc(lane)}</text>`);
  });
  // Each driver process's lifetime, from its start to its exit (or the end of the record), numbered as in the report.
  for (const s of spans) {
    const y = laneY(s.driver);
    const number = /#\d+$/.exec(s.driver)?.[0] ?? s.driver;
    parts.push(
      `<g class="process"><title>${esc(`${s.driver}${s.killed ? ': killed' : ''}`)}</title><line class="life${s.killed ? ' killed' : ''}" x1="${x(s.from)}" x2="${x(s.to)}" y1="${y}" y2="${y}"/>`,
      `<text class="proc" x="${x(s.from) - 4}" y="${y - 8}">${esc(number)}</text></g>`,
    );
  }
  evs.forEach((e, i) => parts.push(marker(e, x(i), e.kind === 'target' ? laneY(null) : laneY(e.driver), height)));
  // The x axis is the order of events, not time (a 500 ms start-up would squash the rest); ticks give the times.
  let lastTick = -Infinity;
  evs.forEach((e, i) => {
    const wanted = i % 8 === 0 || e.kind === 'kill' || e.kind === 'restart';
    if (!wanted || i - lastTick < 3) return;
    lastTick = i;
    parts.push(`<text class="tick" x="${x(i)}" y="${height - 6}" text-anchor="middle">${e.t < 1000 ? `${Math.round(e.t)}ms` : `${(e.t / 1000).toFixed(2)}s`}</text>`);
  });
  return `<div class="scroll"><svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${parts.join('')}</svg></div>`;
}

// One lane per driver role (`primary`, `victim`): a restarted process continues its predecessor's lane,
// and only processes of one role alive at the same time need lanes of their own.
function packLanes(spans: ReadonlyArray<{ driver: string; from: number; to: number }>): { lanes: string[]; laneOf: Map<string, number> } {
  const lanes: Array<{ role: string; until: number }> = [];
  const laneOf = new Map<string, number>();
  for (const s of spans) {
    const role = s.driver.replace(/#\d+$/, '');
    let i = lanes.findIndex((l) => l.role === role && l.until < s.from);
    if (i < 0) i = lanes.push({ role, until: s.to }) - 1;
    else lanes[i]!.until = s.to;
    laneOf.set(s.driver, i);
  }
  return { lanes: lanes.map((l) => l.role), laneOf };
}

function marker(e: Ev, x: number, y: number, height: number): string {
  const tip = `<title>${esc(describe(e))}</title>`;
  const label = (text: string, cls = ''): string => `<text class="label ${cls}" transform="translate(${x + 3},${TOP - 6}) rotate(-40)">${esc(text.length > 34 ? `${text.slice(0, 33)}…` : text)}</text>`;
  switch (e.kind) {
    case 'request':
      return `<g class="ev request">${tip}<circle cx="${x}" cy="${y}" r="4"/>${label(e.name ?? '?')}</g>`;
    case 'result':
      return `<g class="ev result">${tip}<circle cx="${x}" cy="${y}" r="4"/></g>`;
    case 'error':
      return `<g class="ev error">${tip}<circle cx="${x}" cy="${y}" r="5"/>${label(`error ${e.detail ?? ''}`, 'warn')}</g>`;
    case 'crashpoint':
      return `<g class="ev crashpoint">${tip}<path d="M${x} ${y - 7}L${x + 7} ${y}L${x} ${y + 7}L${x - 7} ${y}Z"/>${label(e.name ?? 'crash point', 'point')}</g>`;
    case 'resume':
      return `<g class="ev resume">${tip}<path d="M${x - 4} ${y - 5}L${x + 5} ${y}L${x - 4} ${y + 5}Z"/></g>`;
    case 'kill':
      return `<g class="ev kill">${tip}<path d="M${x - 7} ${y - 7}L${x + 7} ${y + 7}M${x + 7} ${y - 7}L${x - 7} ${y + 7}"/>${label(`${e.detail ?? 'kill'} at ${(e.name ?? '?').replace(/^(boundary|point):/, '')}`, 'bad')}</g>`;
    case 'exit':
      return `<g class="ev exit">${tip}<line x1="${x}" x2="${x}" y1="${y - 9}" y2="${y + 9}"/></g>`;
    case 'start':
      return `<g class="ev start">${tip}<line x1="${x}" x2="${x}" y1="${y - 9}" y2="${y + 9}"/></g>`;
    case 'restart':
      return `<g class="ev restart">${tip}<line x1="${x}" x2="${x}" y1="${TOP}" y2="${height - AXIS}"/>${label('restart', 'point')}</g>`;
    case 'target':
      return `<g class="ev target ${e.detail?.includes('dedup') === true ? 'dedup' : 'write'}">${tip}<rect x="${x - 5}" y="${y - 5}" width="10" height="10"/>${label(`${e.name ?? 'target'} ${e.detail?.split(' ').slice(2).join(' ') ?? ''}`)}</g>`;
    case 'disclosure':
      return `<g class="ev disclosure">${tip}<circle cx="${x}" cy="${y}" r="6"/>${label(`disclosed ${e.detail ?? ''}`)}</g>`;
    case 'elided':
      return `<g class="ev elided">${tip}<line x1="${x}" x2="${x}" y1="${TOP}" y2="${height - AXIS}"/>${label(`… ${e.detail ?? ''} elided`)}</g>`;
    default:
      return `<g class="ev other">${tip}<circle cx="${x}" cy="${y}" r="3"/>${label(e.kind)}</g>`;
  }
}

function describe(e: Ev): string {
  return [`${e.t.toFixed(1)} ms`, e.driver, e.seq === null ? null : `seq ${e.seq}`, e.kind, e.name, e.detail].filter((p) => p !== null && p !== '').join(' · ');
}

function legend(): string {
  const items: Array<[string, string]> = [
    ['request', 'request'], ['result', 'result'], ['error', 'error answer'], ['crashpoint', 'announced crash point'],
    ['kill', 'kill (signal, where)'], ['restart', 'restart'], ['target', 'target write'], ['disclosure', 'disclosure'],
  ];
  return `<ul class="legend">${items.map(([cls, text]) => `<li><span class="swatch ${cls}"></span>${esc(text)}</li>`).join('')}<li><span class="swatch life"></span>driver process lifetime</li></ul>`;
}

function eventTable(evs: Ev[]): string {
  const rows = evs.map((e) => `<tr class="k-${esc(e.kind)}"><td class="num">${e.t.toFixed(1)}</td><td>${esc(e.driver ?? '—')}</td><td class="num">${e.seq ?? ''}</td><td>${esc(e.kind)}</td><td>${esc(e.name ?? '')}</td><td>${esc(e.detail ?? '')}</td></tr>`);
  return `<details class="events"><summary>${evs.length} event(s) as a table</summary><table><thead><tr><th>ms</th><th>driver</th><th>seq</th><th>event</th><th>what</th><th>detail</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}
