// Data flows one way between the top-level folders: no folder imports back into one that imports it, reports/ never
// reaches into the harness, and the harness core never imports the scenario catalog (runner/ passes it in).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_DIRS = ['bin', 'harness', 'reference-impl', 'reports', 'runner', 'scenarios', 'shared'];
// Static imports, re-exports and dynamic imports of a literal: every way one source file names another.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Folder → folder → the file arrows behind that edge, over every .ts source outside test/, bench/ and examples/. */
function folderEdges(): Map<string, Map<string, string[]>> {
  const files = [...readdirSync(ROOT).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), ...SOURCE_DIRS.flatMap((d) => walk(join(ROOT, d)).map((f) => relative(ROOT, f)))];
  const edges = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    const from = folderOf(file);
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(SPECIFIER)) {
      const target = normalize(join(dirname(file), match[1]!));
      const to = folderOf(target);
      if (to === from) continue;
      const out = edges.get(from) ?? new Map<string, string[]>();
      out.set(to, [...(out.get(to) ?? []), `${file} -> ${target}`]);
      edges.set(from, out);
    }
  }
  return edges;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));
}

function folderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '(root)' : path.slice(0, slash);
}

/** A cycle of folders (first folder repeated at the end), or null. */
function findCycle(edges: Map<string, Map<string, string[]>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    if (state.get(node) === 'done') return null;
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      const cycle = visit(next);
      if (cycle !== null) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle !== null) return cycle;
  }
  return null;
}

describe('imports between folders', () => {
  const edges = folderEdges();
  const arrows = (from: string, to: string): string[] => edges.get(from)?.get(to) ?? [];

  it('sees the arrows it is meant to judge (the parse finds real imports)', () => {
    expect(arrows('scenarios', 'harness').length).toBeGreaterThan(10);
    expect(arrows('harness', 'shared').length).toBeGreaterThan(10);
  });

  it('form no circle', () => {
    const cycle = findCycle(edges);
    expect(cycle, cycle === null ? '' : cycle.map((f, i) => (i + 1 < cycle.length ? `${f} -> ${cycle[i + 1]}: ${arrows(f, cycle[i + 1]!)[0]}` : '')).join('\n')).toBeNull();
  });

  it('reports/ imports only shared/: the report model and its renderings never reach into the harness or the CLI', () => {
    for (const to of ['harness', 'bin', 'runner', 'scenarios', 'reference-impl']) expect(arrows('reports', to), `reports -> ${to}`).toEqual([]);
  });

  it('the harness core never imports the scenario catalog or the runner that composes them', () => {
    expect(arrows('harness', 'scenarios')).toEqual([]);
    expect(arrows('harness', 'runner')).toEqual([]);
  });
});
