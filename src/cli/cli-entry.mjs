// Which entry of the command line's bundle cache a command runs from (cli-bundle.ts builds them): `main.mjs`, the
// command line, and `runtime.mjs`, the local runtime. Plain JavaScript (type-checked through JSDoc): bin.mjs finds
// the entry of an unchanged checkout before Node loads its TypeScript stripper. The entry the command runs from
// is noted here, so that a local runtime started early from another entry is not used (local/runtime-group.mjs).
// @ts-check
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot, repoRoot } from './checkout.mjs';
import { latestEntry } from './local/latest-entry.mjs';

export const cliCacheDir = path.join(cacheRoot, 'cli-bundle');
export const MAIN_BUNDLE = 'main.mjs';
export const RUNTIME_BUNDLE = 'runtime.mjs';

/** Files that shape the bundle without being one of its modules: how sources resolve and compile, and esbuild. */
const BUILD_SETTINGS = ['package.json', 'tsconfig.json', 'tsconfig.base.json', 'node_modules/esbuild/package.json'];

/** @type {import('./local/latest-entry.mjs').KeyFiles} */
export const cliKeyFiles = (inputs) => [...BUILD_SETTINGS.map((f) => path.join(repoRoot, f)), ...inputs.map((f) => path.resolve(repoRoot, f))];

/**
 * The latest entry of `cacheDir` while the sources are unchanged, else null.
 * @param {string} [cacheDir]
 * @returns {Promise<string | null>}
 */
export const latestCliEntry = (cacheDir = cliCacheDir) => latestEntry(cacheDir, cliKeyFiles);

/** @type {string | null} */
let running = null;

/**
 * Notes the entry this command runs from (null: its sources).
 * @param {string | null} entry
 * @returns {void}
 */
export const noteCommandEntry = (entry) => {
  running = entry;
};

/** The entry this command runs from, as noted; null when it runs from its sources or noted none. */
export const commandEntry = () => running;

/**
 * The command line's main module of an entry, which this command then runs from.
 * @param {string} entry
 * @returns {Promise<unknown>}
 */
export const mainOf = (entry) => {
  noteCommandEntry(entry);
  return import(pathToFileURL(path.join(entry, MAIN_BUNDLE)).href);
};
