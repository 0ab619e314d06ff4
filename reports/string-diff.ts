// Where two strings first differ, shown so the differing character can be seen: canonical JSON of two projections, mostly.

/** The index of the first UTF-16 code unit where a and b differ, or -1 when they are equal. */
export function firstDifference(a: string, b: string): number {
  if (a === b) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return n;
}

/** Whether marking the difference helps: long enough to hide it, and not two digests (whose first difference means nothing). */
export function worthMarking(expected: string, actual: string): boolean {
  const digest = /^(v\d+:)?[0-9a-f]{16,}$/i;
  return expected !== actual && Math.max(expected.length, actual.length) > 40 && !(digest.test(expected) && digest.test(actual));
}

/**
 * Three lines that put the first difference of two strings under a caret: a window of `width` characters of each
 * around it, control characters escaped so they are visible. Empty when the strings are equal.
 */
export function markDifference(expected: string, actual: string, width = 72): string[] {
  const at = firstDifference(expected, actual);
  if (at < 0) return [];
  const start = Math.max(0, at - Math.floor(width / 2));
  const shown = (s: string): { text: string; caret: number } => {
    const before = escape(s.slice(start, at));
    const text = `${start > 0 ? '…' : ''}${before}${escape(s.slice(at, start + width))}${start + width < s.length ? '…' : ''}`;
    return { text, caret: (start > 0 ? 1 : 0) + before.length };
  };
  const e = shown(expected);
  const a = shown(actual);
  return [
    `first difference at character ${at} (of ${expected.length} expected, ${actual.length} actual):`,
    `  expected: ${e.text}`,
    `  actual:   ${a.text}`,
    `            ${' '.repeat(a.caret)}^`,
  ];
}

// Control and line-separator characters as \uXXXX, so they are visible and keep the caret on one line; the rest as is.
function escape(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
