// The engine's own durable event log (tool-result, node:completed, run terminals, session notices).
import { JsonlLog } from '../jsonl-log.js';

export type EngineEvent =
  | { type: 'node:started'; runId: string; nodeId: string; attempt: number }
  | { type: 'tool-result'; runId: string; nodeId: string; slot: number; projections: unknown }
  | { type: 'node:completed'; runId: string; nodeId: string; output: unknown }
  | { type: 'node:failed'; runId: string; nodeId: string; code: string; retryable: false }
  | { type: 'run:completed'; runId: string }
  | { type: 'run:failed'; runId: string; code: string }
  | { type: 'session:turn'; sessionId: string; turn: number; status: string; compacted: boolean; calls: Array<{ callId: string; toolName: string }> }
  | { type: 'session:notice'; sessionId: string; resume: number; disclosures: Array<{ address: string; reason: string }> };

/** The engine's event log. */
export class EventLog extends JsonlLog<EngineEvent> {
  /** Events of one type, narrowed. */
  ofType<T extends EngineEvent['type']>(type: T): Array<Extract<EngineEvent, { type: T }>> {
    return this.read().filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  }

  /** Whether run `runId` reached its terminal (completed or failed): it can no longer be resumed. */
  ended(runId: string): boolean {
    return this.read().some((e) => (e.type === 'run:completed' || e.type === 'run:failed') && e.runId === runId);
  }

  /** The nodes of run `runId` the log shows completed. */
  completedNodes(runId: string): Set<string> {
    return new Set(this.ofType('node:completed').filter((e) => e.runId === runId).map((e) => e.nodeId));
  }
}
