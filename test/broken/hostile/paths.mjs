// Shared by the hostile drivers: where the compiled host driver and the reference journal are, and a write that never gives up.
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const HOST = fileURLToPath(new URL('../../../dist/harness/driver/host.js', import.meta.url));
export const REFERENCE = fileURLToPath(new URL('../../../dist/reference-impl/adapter.js', import.meta.url));
/** The host driver's command line for the reference journal. */
export const referenceHost = () => [HOST, '--module', REFERENCE];

/** Writes all of `bytes` to `fd`, waiting out a full non-blocking pipe (EAGAIN) instead of failing. */
export function writeFully(fd, bytes) {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let off = 0; off < buf.length; ) {
    try {
      off += writeSync(fd, buf, off);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
