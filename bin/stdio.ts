// The ejc process's stdout and stderr: every write is masked, and a reader that went away (`ejc run | head`) never changes the exit code.
import { maskBytes, maskText } from '../shared/secrets/mask.js';

/** Wraps process.stdout and process.stderr once; call it before anything is written. */
export function installStdio(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    let gone = false;
    // EPIPE: the reader closed its end. The run's outcome is in the exit code and the files, so drop the rest quietly.
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') gone = true;
    });
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
      if (gone) {
        const callback = rest.find((r): r is () => void => typeof r === 'function');
        callback?.();
        return true;
      }
      const masked = typeof chunk === 'string' ? maskText(chunk) : chunk instanceof Uint8Array ? maskBytes(Buffer.from(chunk)) : chunk;
      return write(masked, ...rest);
    }) as typeof stream.write;
  }
}

const guarded = new WeakSet<NodeJS.WriteStream>();
