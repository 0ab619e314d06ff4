// The EffectJournal interface a JavaScript/TypeScript journal implements to be driven by the host driver.
import type { Capabilities, JournalErrorCode, OpParams, OpResult } from '../shared/protocol/schemas.js';

type MaybePromise<T> = T | Promise<T>;

/** Called by the journal at each named internal point; the host blocks there when the harness armed it. */
export type CrashpointHook = (point: string) => void;

export interface JournalFactoryOptions {
  /** Must be called at every internal crash point the journal announces in `capabilities.crashPoints`. */
  readonly crashpoint: CrashpointHook;
  /** Free-form `--impl-option key=value` pairs from the command line. */
  readonly options: Readonly<Record<string, string>>;
}

/** One journal instance, bound to a directory by `open`. Methods may be sync or async. */
export interface EffectJournal {
  readonly name: string;
  readonly version: string;
  readonly capabilities: Capabilities;
  open(params: { dir: string }): MaybePromise<OpResult<'open'>>;
  close(): MaybePromise<void>;
  prepare(params: OpParams<'prepare'>): MaybePromise<OpResult<'prepare'>>;
  settle(params: OpParams<'settle'>): MaybePromise<OpResult<'settle'>>;
  gate(params: OpParams<'gate'>): MaybePromise<OpResult<'gate'>>;
  reconcile(params: OpParams<'reconcile'>): MaybePromise<OpResult<'reconcile'>>;
  resolve(params: OpParams<'resolve'>): MaybePromise<OpResult<'resolve'>>;
  runTerminal(params: OpParams<'runTerminal'>): MaybePromise<OpResult<'runTerminal'>>;
  sessionRead(params: OpParams<'sessionRead'>): MaybePromise<OpResult<'sessionRead'>>;
  sessionSweep(params: OpParams<'sessionSweep'>): MaybePromise<OpResult<'sessionSweep'>>;
  checkpoint(): MaybePromise<OpResult<'checkpoint'>>;
  listEffects(): MaybePromise<OpResult<'listEffects'>>;
  files(): MaybePromise<OpResult<'files'>>;
  fault(params: OpParams<'fault'>): MaybePromise<void>;
  seed(params: OpParams<'seed'>): MaybePromise<OpResult<'seed'>>;
  /** The §11 projection of arguments, when `capabilities.argsProjection` is true (see docs/protocol.md). */
  argsProjection?(params: OpParams<'argsProjection'>): MaybePromise<OpResult<'argsProjection'>>;
  /** KXM operations, present when `capabilities.kxm` is true (see spec kxm-effects-and-recovery). */
  'kxm.declare'?(params: OpParams<'kxm.declare'>): MaybePromise<OpResult<'kxm.declare'>>;
  'kxm.dispatch'?(params: OpParams<'kxm.dispatch'>): MaybePromise<OpResult<'kxm.dispatch'>>;
  'kxm.complete'?(params: OpParams<'kxm.complete'>): MaybePromise<OpResult<'kxm.complete'>>;
  'kxm.recover'?(params: OpParams<'kxm.recover'>): MaybePromise<OpResult<'kxm.recover'>>;
  'kxm.resolve'?(params: OpParams<'kxm.resolve'>): MaybePromise<OpResult<'kxm.resolve'>>;
  'kxm.cancel'?(params: OpParams<'kxm.cancel'>): MaybePromise<OpResult<'kxm.cancel'>>;
  'kxm.list'?(params: OpParams<'kxm.list'>): MaybePromise<OpResult<'kxm.list'>>;
}

/** What an adapter module must export (named `createJournal`, or as its default export). */
export type JournalFactory = (options: JournalFactoryOptions) => EffectJournal;

/** Thrown by a journal to answer an operation with a stable error code instead of a result. */
export class JournalError extends Error {
  readonly code: JournalErrorCode;
  constructor(code: JournalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JournalError';
    this.code = code;
  }
}
