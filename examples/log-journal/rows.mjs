// The journal's rows, rebuilt by applying the log's records in order: the log order decides every race.
// Effect ids are the order in which rows were created, so every process that reads the log agrees on them.

const UNRESOLVED = new Set(['prepared', 'ambiguous', 'needs_attention']);

export function identityOf(scope, slot, toolId) {
  return JSON.stringify([scope.kind, scope.kind === 'run' ? scope.runId : scope.sessionId, scope.kind === 'run' ? scope.nodeId : scope.turn, slot, toolId]);
}

export function isUnresolved(row) {
  return UNRESOLVED.has(row.state);
}

export class Rows {
  constructor() {
    this.byId = new Map();
    /** identity → the row that holds it; a discarded row gives its identity up (the node may run again). */
    this.holder = new Map();
    /** identity → how many rows have held it, for a fresh tier-1 key after a discard. */
    this.generations = new Map();
    this.pendingSweeps = new Map();
    /** Result bytes no row needs any more: erased in place by the next checkpoint. */
    this.deadSpans = [];
    this.nextId = 1;
  }

  /** Applies one record and returns what it did (the writer of the record reads its own outcome here). */
  apply(record, span) {
    switch (record.t) {
      case 'prepare':
        return this.#create(record, span, 'prepared');
      case 'seed':
        return this.#create(record, span, record.state);
      case 'settle':
        return this.#settle(record, span);
      case 'resolve':
        return this.#resolve(record);
      case 'run-sweep':
        return this.#delete([...this.byId.values()].filter((r) => r.scope.kind === 'run' && r.scope.runId === record.runId && r.state === 'committed'));
      case 'sweep-chunk':
        this.pendingSweeps.set(record.tx, [...(this.pendingSweeps.get(record.tx) ?? []), ...record.rows]);
        return { ok: true };
      case 'sweep-commit':
        return this.#commitSweep(record);
      case 'clear':
        for (const id of record.ids) this.#forgetResult(this.byId.get(id));
        return { ok: true };
      default:
        return { ok: false };
    }
  }

  #create(record, span, state) {
    const identity = identityOf(record.scope, record.slot, record.toolId);
    const holder = this.holder.get(identity);
    if (holder !== undefined) return { ok: false, holder };
    const id = String(this.nextId++);
    const resultText = record.r ?? null;
    this.byId.set(id, {
      effectId: id, scope: record.scope, slot: record.slot, toolId: record.toolId, tier: record.tier, state,
      argsDigest: record.digest, mappingDigest: record.mapping ?? null, idempotencyKey: record.key ?? null,
      resultText, resultSpan: resultText === null ? null : span, resolution: null, attempt: record.attempt,
    });
    this.holder.set(identity, id);
    this.generations.set(identity, (this.generations.get(identity) ?? 0) + 1);
    return { ok: true, id };
  }

  #settle(record, span) {
    const row = this.byId.get(record.id);
    if (!row) return { ok: false, code: 'settle_no_row' };
    if (row.state !== 'prepared') return { ok: false, code: 'settle_already_settled', state: row.state };
    row.state = record.state;
    if (record.r !== undefined) {
      row.resultText = record.r;
      row.resultSpan = span;
    }
    return { ok: true, state: row.state };
  }

  #resolve(record) {
    const row = this.byId.get(record.id);
    if (!row || !isUnresolved(row) || row.resolution !== null) return { ok: false };
    row.resolution = { decision: record.decision, actor: record.actor, at: record.at };
    if (record.decision === 'discarded') this.holder.delete(identityOf(row.scope, row.slot, row.toolId));
    return { ok: true };
  }

  // Deletes exactly the captured rows still committed at the same address when the commit record is reached (§9).
  #commitSweep(record) {
    const captured = this.pendingSweeps.get(record.tx) ?? [];
    this.pendingSweeps.delete(record.tx);
    const doomed = captured.flatMap((c) => {
      const row = this.byId.get(c.effectId);
      const same = row && row.state === 'committed' && row.scope.kind === 'session' && row.scope.sessionId === record.sessionId && c.sessionId === record.sessionId
        && row.scope.turn === c.turn && row.slot === c.slot && row.toolId === c.toolId;
      return same ? [row] : [];
    });
    return this.#delete([...new Set(doomed)]);
  }

  #delete(rows) {
    for (const row of rows) {
      this.#forgetResult(row);
      this.byId.delete(row.effectId);
      const identity = identityOf(row.scope, row.slot, row.toolId);
      if (this.holder.get(identity) === row.effectId) this.holder.delete(identity);
    }
    return { ok: true, deleted: rows.length };
  }

  #forgetResult(row) {
    if (!row) return;
    if (row.resultSpan) this.deadSpans.push(row.resultSpan);
    row.resultText = null;
    row.resultSpan = null;
  }
}
