// Trajectory paths as the reference's leaderboard commands take them (reference: expand_paths in
// src/tau2/utils/io_utils.py): files, folders (a results folder, a simulations/ folder of run folders, or
// every file under it) and glob patterns, sorted and without duplicates, kept if they end in the extension.
import { glob, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const kind = (p: string) => stat(p).then((s) => (s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other'), () => 'none');

const exists = async (p: string): Promise<boolean> => (await kind(p)) !== 'none';

/** Every file under a folder, at any depth. */
const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
};

const expandOne = async (target: string, extension: string | null, warn: (line: string) => void): Promise<string[]> => {
  const what = await kind(target);
  if (what === 'file') return [path.normalize(target)];
  if (what === 'dir') {
    const results = path.join(target, 'results.json');
    if (extension === '.json' && (await exists(results))) return [results];
    if (extension === '.json' && path.basename(target) === 'simulations') {
      const runs = await readdir(target, { withFileTypes: true });
      const files = runs.filter((e) => e.isDirectory()).map((e) => path.join(target, e.name, 'results.json'));
      return (await Promise.all(files.map(async (f) => ((await exists(f)) ? [f] : [])))).flat();
    }
    return filesUnder(target);
  }
  const matched: string[] = [];
  for await (const file of glob(target)) matched.push(file);
  if (matched.length === 0) warn(`Warning: No files found for pattern: ${target}`);
  return matched;
};

/** Python's sorted() on str: by code point. */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const expandPaths = async (targets: readonly string[], extension: string | null, warn: (line: string) => void): Promise<string[]> => {
  const files = [];
  for (const target of targets) files.push(...(await expandOne(target, extension, warn)));
  const unique = [...new Set(files)].sort(byCodePoint);
  return extension === null ? unique : unique.filter((f) => path.extname(f) === extension);
};
