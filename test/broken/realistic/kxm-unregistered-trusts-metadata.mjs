// A tool the registry does not list is classed by its own declaration when it has one ("the registry cannot know every
// MCP tool, and the tool knows itself best"), falling back to `unknown` only without one: a discovered tool declaring
// itself read-only is retried after a lost acknowledgement (KXM §Effect declaration: unregistered tools are unknown).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-unregistered-trusts-metadata', options, (j) => ({
    'kxm.declare': (p) => {
      const listed = Object.hasOwn(p.registry.tools, p.toolId);
      if (listed || p.declaredClass === undefined) return j['kxm.declare'](p);
      const registry = { ...p.registry, tools: { ...p.registry.tools, [p.toolId]: { class: p.declaredClass, receiptQuery: null } } };
      return j['kxm.declare']({ ...p, registry });
    },
  }));
}
