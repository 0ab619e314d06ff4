// What binds a report to what was tested: implementation fingerprint, harness build, environment and outcome settings.
import { z } from 'zod';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** One file of the implementation: what it is to the run, where it was, and its bytes' SHA-256. */
export const FingerprintFile = z.object({
  /** Relative to the invoking directory when inside it (POSIX separators), `ejc:`-prefixed inside this package, else absolute. */
  path: z.string().min(1),
  /** adapter: the --impl module; loaded: an --impl-files match or a module the bundled adapter imports; executable: the --cmd program; argument: a file named on the --cmd line. */
  role: z.enum(['adapter', 'loaded', 'executable', 'argument']),
  sha256: Sha256Hex,
  bytes: z.number().int().min(0),
});

/** The implementation under test, by content: the in-toto subject of a signed report. */
export const Fingerprint = z.object({
  algorithm: z.literal('sha256'),
  /** SHA-256 of the RFC 8785 canonical JSON of `files` (sorted by path). */
  digest: Sha256Hex,
  files: z.array(FingerprintFile).min(1),
});

/** The harness's own code: SHA-256 over a sha256sum listing of every .js file of its build. */
export const HarnessBuild = z.object({
  algorithm: z.literal('sha256'),
  digest: Sha256Hex,
  files: z.number().int().min(1),
});

/** Where one run (or one shard of it) happened. Not part of the outcome digest. */
export const Environment = z.object({
  /** The shard this entry describes; null for an unsharded run. A merged report has one entry per shard. */
  shard: z.number().int().min(1).nullable(),
  node: z.string().min(1),
  /** The harness's better-sqlite3 and the SQLite it bundles (the reference journal's storage). */
  betterSqlite3: z.string().nullable(),
  sqlite: z.string().nullable(),
  os: z.object({ platform: z.string(), arch: z.string(), release: z.string(), version: z.string() }),
  /** The file-system type under the trial directories (ext4, tmpfs, overlay...). */
  trialFs: z.string().min(1),
  /** strace's version, or null when it is absent (the write-sweep scenarios are then not applicable). */
  strace: z.string().nullable(),
  /** libfaketime's path, or null when it is absent (clock jumps are then not tested); absent in reports written before it was probed. */
  faketime: z.string().nullable().optional(),
  /**
   * How drivers were confined: `pid-namespace` (each in its own PID namespace under its init, so the kernel ends everything
   * it started with it) or `process-tree` (the fallback where namespaces cannot be made: the harness's scan alone).
   */
  confinement: z.enum(['pid-namespace', 'process-tree']),
});

const SettingValue = z.union([z.string(), z.number(), z.boolean()]);

/** Every setting besides seed and selection that can change an outcome; --jobs cannot, so it is not here. */
export const Settings = z.object({
  timeoutMs: z.number().int().min(1),
  /** Scenario ids listed by --expect-failures, sorted. */
  expectFailures: z.array(z.string().min(1)),
  /** Settings a scenario family adds (e.g. an exploration family's seed and trial count), by family name. */
  families: z.record(z.string(), z.record(z.string(), SettingValue)),
});

export type FingerprintFile = z.infer<typeof FingerprintFile>;
export type Fingerprint = z.infer<typeof Fingerprint>;
export type HarnessBuild = z.infer<typeof HarnessBuild>;
export type Environment = z.infer<typeof Environment>;
export type Settings = z.infer<typeof Settings>;
