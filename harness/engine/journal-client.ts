// The engine's view of one driver: typed operations, crash points handled by the trial's plan.
import type { DriverHandle, CallOutcome } from '../driver/types.js';
import type { JournalErrorCode, OperationName, OpParams, OpResult } from '../../shared/protocol/schemas.js';
import { EjcError } from '../../shared/errors.js';
import { CrashInjected } from './crash-plan.js';
import { harnessGate } from './harness-gate.js';
import { withheldBy } from './withheld-ops.js';
import type { TrialContext } from './trial-context.js';

export type TryResult<O extends OperationName> =
  | { ok: true; result: OpResult<O> }
  | { ok: false; code: JournalErrorCode; message: string };

/** The journal answered an operation with an error where the engine needed a result. */
export class JournalOpError extends Error {
  readonly code: JournalErrorCode;
  constructor(
    readonly op: OperationName,
    code: JournalErrorCode,
    message: string,
  ) {
    super(`${op} answered ${code}: ${message}`);
    this.name = 'JournalOpError';
    this.code = code;
  }
}

/** A driver as the engine uses it. */
export class JournalClient {
  constructor(
    readonly handle: DriverHandle,
    private readonly trial: TrialContext,
    /** The journal directory this driver opened: a kill here makes the next driver on it a restart. */
    readonly journalDir: string,
  ) {}

  /** The files `open` answered it keeps (claims.* compare them with the directory). */
  openedFiles: readonly string[] | null = null;

  /** The faults this driver has switched on (and not off): what an engine step may read an error as. */
  readonly faultsOn = new Set<string>();

  get label(): string {
    return this.handle.label;
  }

  /** Performs an operation and returns its result; a journal error becomes JournalOpError. */
  async op<O extends OperationName>(op: O, params: OpParams<O>): Promise<OpResult<O>> {
    const outcome = await this.try(op, params);
    if (!outcome.ok) throw new JournalOpError(op, outcome.code, outcome.message);
    return outcome.result;
  }

  /**
   * Performs an operation and returns the result or the journal's error code. The hello decides what is sent: with
   * `gate: "harness"` a gate is the harness's own over the rows, and an operation it declared absent is never sent
   * (a harness bug, so the trial is inconclusive, never a finding against the journal).
   */
  async try<O extends OperationName>(op: O, params: OpParams<O>): Promise<TryResult<O>> {
    if (op === 'gate' && this.trial.capabilities.gate === 'harness') {
      const p = params as OpParams<'gate'>;
      const sent = this.trial.tick();
      const result = await harnessGate(this.trial, this, p.scope, p.attempt ?? 1);
      this.trial.noteOp(this, op, params, sent, { kind: 'result', result });
      return { ok: true, result: result as OpResult<O> };
    }
    const withheld = withheldBy(this.trial.capabilities, op, params);
    if (withheld !== null) throw new EjcError('harness_requirement', `the harness would have sent ${op}, which the hello declared absent (${withheld}): not sent`);
    return this.probe(op, params);
  }

  /** Sends an operation whatever the hello claims: only for probing a claim (claims.operations-match-hello). */
  async probe<O extends OperationName>(op: O, params: OpParams<O>): Promise<TryResult<O>> {
    await this.trial.beforeOp?.(this, op);
    const sent = this.trial.tick();
    let outcome;
    try {
      outcome = await this.handle.call(op, params);
      while (outcome.kind === 'crashpoint') {
        this.trial.pointsSeen += 1;
        // A planned point announced inside the wrong operation is resumed, never killed at: the journal broke the plan.
        if (!this.trial.pointInWrongOperation(outcome.point, op, this) && this.trial.shouldKillAtPoint(outcome.point, this)) {
          this.trial.noteOp(this, op, params, sent, { kind: 'killed', at: `point:${outcome.point}` });
          await this.trial.kill(this, `point:${outcome.point}`);
          throw new CrashInjected(`point:${outcome.point}`);
        }
        outcome = await outcome.resume();
      }
    } catch (error) {
      // A driver started under strace to die at a syscall dies inside whatever operation was running: that is the crash.
      const at = error instanceof CrashInjected ? null : await this.trial.syscallKill(this, error);
      if (at === null) throw error;
      this.trial.noteOp(this, op, params, sent, { kind: 'killed', at });
      throw new CrashInjected(at);
    }
    const answer: TryResult<O> = outcome.kind === 'result'
      ? { ok: true, result: outcome.result }
      : { ok: false, code: outcome.code, message: outcome.message };
    this.trial.noteOp(this, op, params, sent, answer.ok ? { kind: 'result', result: answer.result } : { kind: 'error', code: answer.code, message: answer.message });
    if (op === 'fault' && answer.ok) {
      const f = params as OpParams<'fault'>;
      if (f.enabled) this.faultsOn.add(f.fault);
      else this.faultsOn.delete(f.fault);
    }
    return answer;
  }

  /** Starts an operation and stops at the named crash point, leaving the driver blocked there. */
  async holdAt<O extends OperationName>(op: O, params: OpParams<O>, point: string): Promise<CallOutcome<O>> {
    let outcome = await this.handle.call(op, params);
    while (outcome.kind === 'crashpoint' && outcome.point !== point) outcome = await outcome.resume();
    return outcome;
  }

  /** Graceful close of the journal and the driver. */
  async close(): Promise<void> {
    await this.try('close', {});
    await this.handle.close();
    this.trial.released(this);
    this.trial.note({ kind: 'close', driver: this.label });
  }
}
