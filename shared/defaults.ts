// The run settings' defaults, shared by the CLI, the vitest entry and the reproduce commands so they cannot drift apart.

/** The seed used when --seed is not given, so two default runs are the same run. */
export const DEFAULT_SEED = 1;
/** The per-operation timeout when --timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Seeds are 32-bit (the generator's state): a larger one would silently repeat a smaller seed's run. */
export const MAX_SEED = 2 ** 32 - 1;
/** Node timers hold at most 2^31-1 ms; a longer timeout would wrap to 1 ms. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** Each lane runs its own driver processes; beyond this a machine runs out of processes before it runs faster. */
export const MAX_JOBS = 256;
