// The run settings' defaults, shared by the CLI, the vitest entry and the reproduce commands so they cannot drift apart.

/** The seed used when --seed is not given, so two default runs are the same run. */
export const DEFAULT_SEED = 1;
/** The per-operation timeout when --timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;
