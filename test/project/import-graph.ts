/** Reading a package's relative imports as a graph, for the architecture tests. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The .ts files under `dir` (relative to the repository), tests included. */
export function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return files(rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

export const readSource = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/**
 * file → the files of `known` (by default `list`) it imports: relative imports, type-only,
 * re-exports and dynamic ones included. `read` lets a test plant a file's text.
 */
export function importGraph(
  list: string[],
  read: (file: string) => string = readSource,
  known: Set<string> = new Set(list),
): Map<string, string[]> {
  return new Map(
    list.map((file) => {
      const specs = [...read(file).matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
      const targets = specs.map((s) => path.join(path.dirname(file), s).replace(/\.js$/, '.ts')).filter((t) => known.has(t));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Every import cycle, each as the path around it (`a -> b -> a`), found by a depth-first walk. */
export function findCycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

/** A layer of a package: the files (paths below the package's src/) it matches. */
export interface Layer {
  name: string;
  match: RegExp;
}

/** The index of the first layer (bottom first) matching `file` below `root`; throws for a file in none. */
export function layerIn(layers: Layer[], root: string, file: string): number {
  const rel = path.relative(root, file);
  const at = layers.findIndex((l) => l.match.test(rel));
  if (at < 0) throw new Error(`${file} is in no layer: add it to the package's layers`);
  return at;
}

/** `from -> to` for each import of a file from a layer above its own. */
export function upwardArrows(graph: Map<string, string[]>, layers: Layer[], root: string): string[] {
  const rank = (f: string) => layerIn(layers, root, f);
  return [...graph].flatMap(([file, targets]) => targets.filter((t) => rank(t) > rank(file)).map((t) => `${file} -> ${t}`));
}
