// The reference EffectJournal: binds the operation modules to one SQLite file and its WAL.
import { join } from 'node:path';
import type { EffectJournal, JournalFactoryOptions } from '../harness/journal-interface.js';
import { JournalError } from '../harness/journal-interface.js';
import type { Capabilities, Fault, OpParams, OpResult, TierMode } from '../shared/protocol/schemas.js';
import { BlockedReader } from './blocked-reader.js';
import { ALL_FAULTS, CRASH_POINTS, DB_FILE_NAME, DEFAULT_SWEEP_CHUNK, JOURNAL_NAME, JOURNAL_VERSION } from './constants.js';
import type { JournalContext } from './context.js';
import { gateNode } from './gate.js';
import { clearLegacySessionResults, listAllEffects, seedRows } from './maintenance.js';
import { prepareEffect } from './prepare.js';
import { reconcileEffect, resolveEffect } from './resolution.js';
import { checkpointNow, sweepTerminalRun } from './retention.js';
import { createSchema } from './schema.js';
import { readSession } from './session-read.js';
import { sweepSession } from './session-sweep.js';
import { settleEffect } from './settle.js';
import { kxmComplete, kxmDeclare, kxmDispatch } from './kxm/dispatch.js';
import { kxmRecover } from './kxm/recover.js';
import { kxmCancel, kxmList, kxmResolve } from './kxm/resolve.js';
import { createKxmSchema } from './kxm/schema.js';
import { openConnection } from './sqlite.js';
import { argsCanonical } from './digest.js';
import { DIGEST_VERSION } from './constants.js';
import { sha256Hex } from './sha256.js';

export type ReferenceJournalOptions = JournalFactoryOptions & { tierMode?: TierMode; faultsAllowed?: boolean; sweepChunkSize?: number };

/** The reference journal; every operation is synchronous and answers errors as JournalError. */
export class ReferenceJournal implements EffectJournal {
  readonly name = JOURNAL_NAME;
  readonly version = JOURNAL_VERSION;
  readonly capabilities: Capabilities;
  private readonly faults = new Set<Fault>();
  private ctx: JournalContext | null = null;
  private path: string | null = null;
  private reader: BlockedReader | null = null;

  constructor(private readonly options: ReferenceJournalOptions) {
    this.capabilities = {
      crashPoints: [...CRASH_POINTS],
      faults: options.faultsAllowed === false ? [] : [...ALL_FAULTS],
      tierMode: options.tierMode ?? 'reconciling',
      sessions: true,
      seeding: true,
      outerTransactionProbe: true,
      kxm: true,
      resolution: true,
      sweepChunkSize: options.sweepChunkSize ?? DEFAULT_SWEEP_CHUNK,
      sqliteWal: true,
      argsProjection: true,
    };
  }

  open(params: { dir: string }): OpResult<'open'> {
    return guard(() => {
      if (this.ctx) throw new JournalError('internal', 'the journal is already open');
      const path = join(params.dir, DB_FILE_NAME);
      const db = openConnection(path);
      try {
        createSchema(db);
        createKxmSchema(db);
        clearLegacySessionResults(db);
      } catch (error) {
        db.close();
        throw error;
      }
      this.path = path;
      this.ctx = {
        db,
        crashpoint: (point) => this.options.crashpoint(point),
        tierMode: this.capabilities.tierMode,
        faults: this.faults,
        sweepChunkSize: this.capabilities.sweepChunkSize ?? DEFAULT_SWEEP_CHUNK,
        now: () => new Date().toISOString(),
      };
      return this.files();
    });
  }

  close(): void {
    guard(() => {
      this.releaseReader();
      this.ctx?.db.close();
      this.ctx = null;
    });
  }

  prepare(params: OpParams<'prepare'>): OpResult<'prepare'> {
    return guard(() => prepareEffect(this.open_(), params));
  }

  settle(params: OpParams<'settle'>): OpResult<'settle'> {
    return guard(() => settleEffect(this.open_(), params));
  }

  gate(params: OpParams<'gate'>): OpResult<'gate'> {
    return guard(() => gateNode(this.open_(), params));
  }

  reconcile(params: OpParams<'reconcile'>): OpResult<'reconcile'> {
    return guard(() => reconcileEffect(this.open_(), params));
  }

  resolve(params: OpParams<'resolve'>): OpResult<'resolve'> {
    return guard(() => resolveEffect(this.open_(), params));
  }

  runTerminal(params: OpParams<'runTerminal'>): OpResult<'runTerminal'> {
    return guard(() => sweepTerminalRun(this.open_(), params.runId));
  }

  sessionRead(params: OpParams<'sessionRead'>): OpResult<'sessionRead'> {
    return guard(() => readSession(this.open_(), params));
  }

  sessionSweep(params: OpParams<'sessionSweep'>): OpResult<'sessionSweep'> {
    return guard(() => sweepSession(this.open_(), params));
  }

  checkpoint(): OpResult<'checkpoint'> {
    return guard(() => checkpointNow(this.open_()));
  }

  listEffects(): OpResult<'listEffects'> {
    return guard(() => ({ effects: listAllEffects(this.open_().db) }));
  }

  argsProjection(params: OpParams<'argsProjection'>): OpResult<'argsProjection'> {
    // A pure function of the arguments: it needs no open journal and writes nothing.
    return guard(() => {
      const canonical = argsCanonical(params.args, params.secretArgKeys);
      return { canonical, digest: DIGEST_VERSION + sha256Hex(canonical) };
    });
  }

  files(): OpResult<'files'> {
    if (this.path === null) throw new JournalError('not_open', 'the journal has not been opened');
    return { files: [this.path, `${this.path}-wal`] };
  }

  fault(params: OpParams<'fault'>): void {
    guard(() => {
      if (!this.capabilities.faults.includes(params.fault)) {
        throw new JournalError('unsupported', `fault ${params.fault} is not offered by this journal instance`);
      }
      this.open_();
      if (params.enabled) this.faults.add(params.fault);
      else this.faults.delete(params.fault);
      if (params.fault !== 'checkpoint_blocked_by_reader') return;
      if (params.enabled && !this.reader) this.reader = new BlockedReader(this.path ?? '');
      if (!params.enabled) this.releaseReader();
    });
  }

  seed(params: OpParams<'seed'>): OpResult<'seed'> {
    return guard(() => ({ effectIds: seedRows(this.open_().db, params.rows, new Date().toISOString()) }));
  }

  'kxm.declare'(params: OpParams<'kxm.declare'>): OpResult<'kxm.declare'> {
    return guard(() => kxmDeclare(this.open_(), params));
  }

  'kxm.dispatch'(params: OpParams<'kxm.dispatch'>): OpResult<'kxm.dispatch'> {
    return guard(() => kxmDispatch(this.open_(), params));
  }

  'kxm.complete'(params: OpParams<'kxm.complete'>): OpResult<'kxm.complete'> {
    return guard(() => kxmComplete(this.open_(), params));
  }

  'kxm.recover'(params: OpParams<'kxm.recover'>): OpResult<'kxm.recover'> {
    return guard(() => kxmRecover(this.open_(), params));
  }

  'kxm.resolve'(params: OpParams<'kxm.resolve'>): OpResult<'kxm.resolve'> {
    return guard(() => kxmResolve(this.open_(), params));
  }

  'kxm.cancel'(params: OpParams<'kxm.cancel'>): OpResult<'kxm.cancel'> {
    return guard(() => kxmCancel(this.open_(), params));
  }

  'kxm.list'(params: OpParams<'kxm.list'>): OpResult<'kxm.list'> {
    return guard(() => kxmList(this.open_(), params));
  }

  private open_(): JournalContext {
    if (!this.ctx) throw new JournalError('not_open', 'the journal has not been opened');
    return this.ctx;
  }

  private releaseReader(): void {
    const reader = this.reader;
    this.reader = null;
    reader?.release();
  }
}

// Every failure leaves as a JournalError with a stable code; SQLite's own error stays as the cause.
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof JournalError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new JournalError('internal', `reference journal: ${message}`, { cause: error });
  }
}
