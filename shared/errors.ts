// Harness error classes: every failure has a stable `code` and keeps the original error as `cause`.

export type EjcErrorCode =
  | 'usage'
  | 'adapter_missing'
  | 'adapter_shape'
  | 'driver_start_failed'
  | 'protocol_violation'
  | 'operation_timeout'
  | 'driver_exited'
  | 'journal_error'
  | 'report_invalid'
  | 'report_unreadable'
  | 'key_invalid'
  | 'scenario_unknown'
  | 'harness_requirement'
  | 'output_invalid'
  | 'output_write_failed'
  | 'environment'
  | 'internal';

/** The one error class the harness throws; `code` is stable and documented. */
export class EjcError extends Error {
  readonly code: EjcErrorCode;
  constructor(code: EjcErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EjcError';
    this.code = code;
  }
}

/** A message from the implementation that breaks the wire protocol; names the op and the field. */
export class ProtocolViolation extends EjcError {
  readonly op: string | null;
  readonly field: string | null;
  readonly line: string;
  constructor(details: { op: string | null; field: string | null; line: string; message: string }, options?: { cause?: unknown }) {
    super('protocol_violation', details.message, options);
    this.name = 'ProtocolViolation';
    this.op = details.op;
    this.field = details.field;
    this.line = details.line;
  }
}
