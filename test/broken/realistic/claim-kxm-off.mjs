// KXM lease fencing scoped to (lease, tool) (kxm-effects-and-recovery §Lease failure), shipped with kxm left out of hello
// ("our KXM support is experimental"): every kxm.* operation still answers, but the kxm and edge.kxm scenarios did not run.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('claim-kxm-off', options, ({ kxm: _kxm, ...caps }) => caps, () => ({}), { 'reference-impl/kxm/dispatch.js': new URL('./own/kxm-fence-per-tool.mjs', import.meta.url).href });
}
