// Announces prepare.before-commit from its wrapper after the prepare's transaction has committed ("the point is around
// the call"): a kill there finds the row already durable. Its hello lists the point, so the matrix planned kills there.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  const inner = { ...options, crashpoint: (point) => (point === 'prepare.before-commit' ? undefined : options.crashpoint(point)) };
  return claimJournal('claim-point-after-commit', inner, (caps) => caps, (j) => ({
    prepare(p) {
      const v = j.prepare(p);
      options.crashpoint('prepare.before-commit');
      return v;
    },
  }));
}
