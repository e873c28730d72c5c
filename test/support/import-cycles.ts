// The import cycles among a folder's TypeScript modules: each relative import (`import … from`, `export … from`,
// a dynamic `import()`) is an edge, type-only imports included, since a cycle of types still ties two modules'
// meanings together. Tarjan's strongly connected components; each component of two or more modules (or a module
// importing itself) is one cycle.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const modulesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));

/** The modules each module of `dir` imports, restricted to modules of `dir`. */
export const importGraph = (dir: string): Map<string, string[]> => {
  const modules = new Set(modulesUnder(path.resolve(dir)));
  const graph = new Map<string, string[]>();
  for (const file of modules) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1] ?? m[2]!)).filter((t) => modules.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
};

/** Each cycle as its modules' paths relative to `dir`, sorted. */
export const importCycles = (dir: string): string[][] => {
  const graph = importGraph(dir);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || graph.get(node)!.includes(node)) cycles.push(component.map((m) => path.relative(path.resolve(dir), m)).sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
};
