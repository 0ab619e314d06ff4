// §3: which dispatches are journaled. A predicate over the resolved call, not a policy class.

/** A tool definition as the engine sees it. Only first-party definitions are trusted for duplicationBenign. */
export interface ToolDef {
  readonly id: string;
  /** Whether a dispatch can change state outside this process (local files count). */
  readonly performsExternalMutation: boolean;
  /** Trust-bearing: honoured only when `firstParty` is true (§3.3). */
  readonly duplicationBenign?: boolean;
  /** Set only by built-in definitions in this repository. */
  readonly firstParty?: boolean;
  /** Bytes from outside the engine (MCP metadata, discovered descriptors): never consulted for trust. */
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** journaled ⇔ performsExternalMutation(def, args) ∧ ¬duplicationBenign (first-party only). */
export function isJournaled(def: ToolDef, args: Readonly<Record<string, unknown>>): boolean {
  return performsExternalMutation(def, args) && !isDuplicationBenign(def);
}

/** The built-in tools whose journaling the contract names. */
export const FIRST_PARTY_TOOLS: Readonly<Record<string, ToolDef>> = {
  http_request: { id: 'http_request', performsExternalMutation: true, firstParty: true },
  write_file: { id: 'write_file', performsExternalMutation: true, firstParty: true },
  notify: { id: 'notify', performsExternalMutation: true, duplicationBenign: true, firstParty: true },
};

function performsExternalMutation(def: ToolDef, args: Readonly<Record<string, unknown>>): boolean {
  // The per-dispatch rules describe the built-in tools; a foreign tool borrowing the name gets no exemption.
  if (def.firstParty === true && def.id === 'http_request') {
    const method = typeof args['method'] === 'string' ? args['method'] : 'GET';
    return method.trim().toUpperCase() !== 'GET';
  }
  // A whole-file overwrite is naturally idempotent (the file is the receipt); appends compose.
  if (def.firstParty === true && def.id === 'write_file') return args['append'] === true;
  return def.performsExternalMutation;
}

function isDuplicationBenign(def: ToolDef): boolean {
  return def.firstParty === true && def.duplicationBenign === true;
}
