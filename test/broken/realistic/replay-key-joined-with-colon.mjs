// The author keys recorded results by one string, `${runId}:${nodeId}:${slot}:${toolId}`, unescaped: run "a:b" node
// "c" and run "a" node "b:c" read the same key, so the second scope's first call is answered with the first's result.
import { journal, referenceWith } from './journal-base.mjs';
import { argsDigest, outputMappingDigest } from '../../../dist/reference-impl/digest.js';

const createReferenceJournal = await referenceWith();
const KEY = `run_id || ':' || node_id || ':' || slot || ':' || tool_id`;

export function createJournal(options) {
  return journal(createReferenceJournal, 'replay-key-joined-with-colon', options, (j, ctx) => ({
    prepare(p) {
      if (p.correlation.kind !== 'run') return j.prepare(p);
      const c = p.correlation;
      const key = `${c.runId}:${c.nodeId}:${p.slot}:${p.toolId}`;
      const row = ctx.db().prepare(`SELECT * FROM run_effects WHERE scope_kind = 'run' AND ${KEY} = ? AND state = 'committed' AND result_json IS NOT NULL`).get(key);
      if (row && row.args_digest === argsDigest(p.args, p.secretArgKeys) && row.output_mapping_digest === outputMappingDigest(p.outputMappingConfig)) {
        return { verdict: 'replay', effectId: String(row.id), result: JSON.parse(row.result_json) };
      }
      return j.prepare(p);
    },
  }));
}
