// Small, escaping HTML builders for the report page, and defensive readers for a report whose fields may be newer than this code.

/** Escapes text for HTML content and double-quoted attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A loosely typed JSON object. */
export type Loose = Record<string, unknown>;

/** The value as an object, or an empty one. */
export function obj(value: unknown): Loose {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : {};
}

/** The value as an array, or an empty one. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value as a string, or the fallback (numbers and booleans are shown as they print). */
export function str(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fallback;
}

/** The value as a finite number, or null. */
export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Pretty JSON in a <pre>; a long one folds into <details> so the page stays scannable. */
export function jsonBlock(value: unknown, foldOver = 600): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value, null, 2) ?? String(value));
  if (text.length <= foldOver) return `<pre class="json">${esc(text)}</pre>`;
  return `<details class="fold"><summary>${esc(text.slice(0, 80).replace(/\s+/g, ' '))}… (${text.length} characters)</summary><pre class="json">${esc(text)}</pre></details>`;
}

/** A scalar inline, anything else as a JSON block. */
export function valueHtml(value: unknown): string {
  if (value === null) return '<code>null</code>';
  if (typeof value === 'string') return value.length > 200 ? jsonBlock(value) : `<code>${esc(value)}</code>`;
  if (typeof value === 'number' || typeof value === 'boolean') return `<code>${esc(String(value))}</code>`;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string') && value.join(', ').length < 1000) {
    return value.length === 0 ? '<span class="muted">(none)</span>' : value.map((v) => `<code>${esc(v as string)}</code>`).join(' ');
  }
  return jsonBlock(value);
}

/** A definition list of an object's fields, in their order; nested objects recurse one level, deeper ones are JSON. */
export function definitionList(record: Loose, depth = 0): string {
  const rows = Object.entries(record).map(([k, v]) => {
    const nested = depth === 0 && v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).length <= 12;
    return `<dt>${esc(humanLabel(k))}</dt><dd>${nested ? definitionList(v as Loose, depth + 1) : valueHtml(v)}</dd>`;
  });
  return rows.length === 0 ? '<p class="muted">(empty)</p>' : `<dl>${rows.join('')}</dl>`;
}

/** A stable, CSS-safe token for a free-form name (a family, a verdict). */
export function token(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

// Labels a reader would not guess from the field name alone.
const LABELS: Record<string, string> = {
  restartWrites: 'writes after a restart',
  bytesScanned: 'bytes scanned',
  canaryHits: 'planted secrets found',
  notApplicable: 'not applicable',
  outcomeDigest: 'outcome digest',
  contentHash: 'content hash',
};

/** A report field name as words: `dispatchAttempts` → `dispatch attempts`, `not_applicable` → `not applicable`. */
export function humanLabel(key: string): string {
  return LABELS[key] ?? key.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, (_m, a: string, b: string) => `${a} ${b.toLowerCase()}`);
}
