// Terminal colour: on a TTY unless NO_COLOR, forced by FORCE_COLOR, never an escape code for TERM=dumb.

/** Colours for the summary and progress lines; with colour off every function returns its text unchanged. */
export interface Style {
  readonly enabled: boolean;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  /** A verdict word in its colour: passed green, failed red, inconclusive yellow, not applicable dim. */
  verdict(verdict: string, text?: string): string;
}

/**
 * Whether to colour `stream`: FORCE_COLOR (any value but 0/false) forces it; otherwise NO_COLOR (non-empty)
 * or TERM=dumb turn it off, and a terminal turns it on.
 */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

/** Whether the terminal can take cursor movement (an updating progress line): a TTY that is not TERM=dumb. */
export function canRedraw(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** The style for a stream in an environment. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  return createStyle(colourEnabled(stream, env));
}

/** A style with colour on or off. */
export function createStyle(enabled: boolean): Style {
  const sgr = (open: number, close: number) => (text: string) => (enabled && text !== '' ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  const red = sgr(31, 39);
  const green = sgr(32, 39);
  const yellow = sgr(33, 39);
  const dim = sgr(2, 22);
  const bold = sgr(1, 22);
  const verdict = (v: string, text = v): string => {
    if (v === 'passed' || v === 'conformant' || v === 'expected_failure') return green(text);
    if (v === 'failed' || v === 'nonconformant' || v === 'stale_expected_failure') return red(text);
    if (v === 'inconclusive') return yellow(text);
    return dim(text);
  };
  return { enabled, red, green, yellow, dim, bold, verdict };
}
