// Hostile adapter: the reference journal, plus a grandchild that double-forks into its own session at load.
// An ordinary driver otherwise: the grandchild holds nothing, but must not outlive the trial or the run.
import { spawnSync } from 'node:child_process';

// `sh` backgrounds `setsid sleep` and exits, so the sleeper is orphaned, in another session, found only by its environment.
spawnSync('/bin/sh', ['-c', 'setsid sleep 3600 </dev/null >/dev/null 2>&1 &'], { stdio: 'ignore' });

export { createJournal, default } from '../../../dist/reference-impl/adapter.js';
