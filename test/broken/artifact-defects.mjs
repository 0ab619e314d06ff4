// Broken journals for the artifact checks: side files with secrets, echoed secrets, and journal behaviour that
// makes a planned crash unreachable. Each is a real bug; `broken-journal.mjs` serves them like its own defects.
import { appendFileSync, closeSync, openSync, statfsSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { JournalError } from '../../dist/harness/journal-interface.js';

export const ARTIFACT_DEFECTS = {
  // Raw tool arguments are appended to a debug log beside the database, a file the journal never lists.
  'side-file-raw-args': (j, ctx) => ({
    prepare(p) {
      appendFileSync(join(ctx.dir(), 'debug-args.log'), `${JSON.stringify(p.args)}\n`);
      return j.prepare(p);
    },
  }),
  // Raw tool arguments go to a log next to (not inside) the journal's directory.
  'raw-args-outside-dir': (j, ctx) => ({
    prepare(p) {
      appendFileSync(join(dirname(ctx.dir()), 'journal-debug.log'), `${JSON.stringify(p.args)}\n`);
      return j.prepare(p);
    },
  }),
  // Every prepare logs its raw arguments on stderr.
  'echoes-args-on-stderr': (j, ctx) => ({
    prepare(p) {
      writeSync(2, `debug: prepare ${p.toolId} args=${JSON.stringify(p.args)} options=${JSON.stringify(ctx.options)} argv=${JSON.stringify(process.argv.slice(2))}\n`);
      return j.prepare(p);
    },
  }),
  // A refused prepare quotes the arguments back in its error message.
  'echoes-args-in-errors': () => ({
    prepare(p) {
      throw new JournalError('unsupported', `cannot prepare ${p.toolId} with ${JSON.stringify(p.args)}`);
    },
  }),
  // Prepare answers an error where the contract needs a verdict: every effect is refused as unsupported.
  'prepare-answers-unsupported': () => ({
    prepare() {
      throw new JournalError('unsupported', 'tier 3 effects are not supported yet');
    },
  }),
  // Write-behind: prepare answers at once and writes its row at the next operation, so a crash after it loses the row.
  'prepare-not-durable': (j) => {
    const pending = [];
    const ids = new Map();
    let n = 0;
    const flush = () => {
      for (const { alias, params } of pending.splice(0)) {
        const v = j.prepare(params);
        if (v.effectId) ids.set(alias, v.effectId);
      }
    };
    const real = (id) => ids.get(id) ?? id;
    const later = (name) => (p) => {
      flush();
      return j[name](p);
    };
    const withId = (name) => (p) => {
      flush();
      return { ...j[name]({ ...p, effectId: real(p.effectId) }), effectId: p.effectId };
    };
    return {
      prepare(p) {
        const alias = `deferred-${++n}`;
        pending.push({ alias, params: p });
        return { verdict: 'proceed', effectId: alias, idempotencyKey: `ik-${alias}` };
      },
      settle: withId('settle'),
      reconcile: withId('reconcile'),
      gate: later('gate'),
      listEffects: later('listEffects'),
      runTerminal: later('runTerminal'),
      close: later('close'),
    };
  },
  // The journal announces its prepare's crash point while opening, where the contract never puts it, and not in prepare.
  'point-in-wrong-operation': (j, ctx) => ({
    open(p) {
      ctx.crashpoint('prepare.before-commit');
      return j.open(p);
    },
    prepare(p) {
      ctx.silence.add('prepare.before-commit');
      try {
        return j.prepare(p);
      } finally {
        ctx.silence.delete('prepare.before-commit');
      }
    },
  }),
  // Not a journal bug: stands in for another process filling TMPDIR in the middle of a run. It fills the
  // file system of its trial directory, and only one smaller than 64 MiB (a test's private tmpfs).
  'fills-tmpdir-mid-run': (j, ctx) => ({
    prepare(p) {
      const trialDir = dirname(ctx.dir());
      const fs = statfsSync(trialDir);
      if (fs.blocks * fs.bsize > 64 * 1024 * 1024) throw new JournalError('unsupported', 'refusing to fill a file system larger than 64 MiB');
      const fd = openSync(join(trialDir, 'filler'), 'a');
      try {
        for (const size of [1 << 20, 1 << 12, 1]) {
          const chunk = Buffer.alloc(size);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (err) {
            if (err.code !== 'ENOSPC') throw err;
          }
        }
      } finally {
        closeSync(fd);
      }
      return j.prepare(p);
    },
  }),
};
