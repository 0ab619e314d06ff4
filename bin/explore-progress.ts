// Progress of an exploration: on a terminal one updating line (trials, crash states per second, failures), in logs a line per trial.
import type { ExploreProgress } from '../harness/explore/run-explore.js';

export interface Progress {
  onProgress: (e: ExploreProgress) => void;
  finish: () => void;
}

/** A progress printer on `stream`: live on a terminal outside CI, plain lines otherwise. */
export function createExploreProgress(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): Progress {
  const live = stream.isTTY === true && (env['CI'] === undefined || env['CI'] === '' || env['CI'] === 'false');
  const started = Date.now();
  let kills = 0;
  let line = '';
  let drawn = false;
  const draw = (): void => {
    if (!live || line === '') return;
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const text = `${line} · ${(kills / seconds).toFixed(1)} crash states/s · ${elapsed(Date.now() - started)}`;
    stream.write(`\r\x1b[2K${text.slice(0, stream.columns > 20 ? stream.columns - 1 : 200)}`);
    drawn = true;
  };
  const timer = live ? setInterval(draw, 1000) : null;
  timer?.unref();
  const onProgress = (e: ExploreProgress): void => {
    if (e.kind === 'kept') {
      if (drawn) stream.write('\r\x1b[2K');
      stream.write(`kept the trial directory ${e.dir}\n`);
      draw();
      return;
    }
    if (e.kind === 'trial') {
      kills += e.kills;
      line = `trial ${e.done}${e.total === null ? '' : `/${e.total}`} · ${e.failures} failure(s)`;
      if (!live) stream.write(`[${e.done}${e.total === null ? '' : `/${e.total}`}] explore trial ${e.index} ${e.verdict} (${e.kills} kill(s))\n`);
    } else if (e.kind === 'shrink') {
      line = `shrinking: trial ${e.step}/${e.max} ${e.failed ? 'still fails' : 'passes'}`;
      if (!live) stream.write(`shrink ${e.step}/${e.max}: ${e.failed ? 'still fails' : 'passes'}\n`);
    } else {
      line = 'replaying the counterexample';
      if (!live) stream.write('replaying the counterexample\n');
    }
    draw();
  };
  const finish = (): void => {
    if (timer !== null) clearInterval(timer);
    if (drawn) stream.write('\r\x1b[2K');
  };
  return { onProgress, finish };
}

function elapsed(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}
