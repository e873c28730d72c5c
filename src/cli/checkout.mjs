// Where the checkout is, the wrangler it installed and its build cache: read by every part of the CLI that runs
// its tools. Plain JavaScript (type-checked through JSDoc), so that the command's first module (bin.mjs) reads it
// without Node loading its TypeScript stripper.
// @ts-check
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const wranglerBin = path.join(repoRoot, 'node_modules', '.bin', 'wrangler');
/** The local worker's and the command line's build caches (cache-entries.ts). */
export const cacheRoot = path.join(repoRoot, 'node_modules', '.cache', 'tau2-edge');
