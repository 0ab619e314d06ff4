// Watches what drivers write on stdout and stderr for the secrets a trial planted: a journal that repeats one leaks it.
import { canaryLabel } from '../../shared/secrets/mask.js';

export interface EchoFinding {
  readonly driver: string;
  readonly stream: 'stdout' | 'stderr';
  /** The secret's label (`canary:<sha256 prefix>`), never its value. */
  readonly secret: string;
}

/** The planted secrets of one trial and where a driver repeated one. Chunk boundaries cannot hide a secret. */
export class EchoWatch {
  readonly #planted: string[] = [];
  readonly #findings: EchoFinding[] = [];
  readonly #tails = new Map<string, string>();
  #longest = 0;

  /** Adds a value the journal must never repeat back (a secret argument, a session result it must not return). */
  plant(value: string): void {
    if (this.#planted.includes(value)) return;
    this.#planted.push(value);
    this.#longest = Math.max(this.#longest, Buffer.byteLength(value, 'utf8'));
  }

  /** How many values were planted. */
  get planted(): number {
    return this.#planted.length;
  }

  /** A listener for one driver's output chunks (see StartDriverOptions.onOutput); `driver` names it as it is named now. */
  tap(driver: string | (() => string)): (stream: 'stdout' | 'stderr', chunk: Buffer | string) => void {
    const name = typeof driver === 'string' ? () => driver : driver;
    return (stream, chunk) => this.#scan(name(), stream, typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }

  /** Every (driver, stream, secret) seen, in the order first seen. */
  findings(): EchoFinding[] {
    return [...this.#findings];
  }

  #scan(driver: string, stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (this.#planted.length === 0) return;
    const key = `${driver}\u0000${stream}`;
    // latin1 keeps one character per byte, so a secret split across two chunks is found in tail + chunk.
    const text = (this.#tails.get(key) ?? '') + chunk.toString('latin1');
    for (const value of this.#planted) {
      if (!text.includes(Buffer.from(value, 'utf8').toString('latin1'))) continue;
      const secret = canaryLabel(value);
      if (!this.#findings.some((f) => f.driver === driver && f.stream === stream && f.secret === secret)) this.#findings.push({ driver, stream, secret });
    }
    this.#tails.set(key, text.slice(-Math.max(0, this.#longest - 1)));
  }
}
