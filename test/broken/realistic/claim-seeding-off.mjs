// A legacy-digest row (an older writer's v4: digest) replays its stored result instead of refusing (§11). Its hello says
// seeding: false ("we never plant fixtures"), so the legacy-row scenarios did not run, while seed plants rows as asked.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('claim-seeding-off', options, (caps) => ({ ...caps, seeding: false }), (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'refuse' || v.code !== 'legacy_digest' || v.effectId === null) return v;
      const row = ctx.db().prepare('SELECT result_json FROM run_effects WHERE id = ?').get(Number(v.effectId));
      return row?.result_json ? { verdict: 'replay', effectId: v.effectId, result: JSON.parse(row.result_json) } : v;
    },
  }));
}
