// One §11 digest assertion, and on a mismatch the two canonical strings: the harness's and, when the journal answers
// the optional argsProjection operation, the journal's own; the report marks where they first differ.
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

/** Asserts a persisted digest; when it differs, also asserts the canonical projection, so the differing byte is seen. */
export async function expectDigest(
  t: TrialContext,
  client: JournalClient,
  name: string,
  expected: { digest: string; canonical: string },
  call: { args: Record<string, unknown>; secretArgKeys: readonly string[] },
  actualDigest: string | null,
): Promise<void> {
  if (t.expect(name, expected.digest, actualDigest)) return;
  const projection = `canonical projection behind ${name}`;
  if (t.capabilities.argsProjection !== true) {
    t.check(projection, expected.canonical, 'not exposed: the journal does not claim capabilities.argsProjection (docs/protocol.md)', false);
    return;
  }
  const answer = await client.try('argsProjection', { args: call.args as Record<string, never>, secretArgKeys: [...call.secretArgKeys] });
  t.expect(projection, expected.canonical, answer.ok ? answer.result.canonical : `argsProjection answered ${answer.code}: ${answer.message}`);
}
