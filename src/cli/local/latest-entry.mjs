// Which entry of a build cache (built-entries.ts) a start reuses: the one `latest.json` names, while the files it
// was built from still hash to its name, checked by their stamps first (input-stamps.mjs: hashing a whole bundle's
// sources takes a tenth of a second or more), and by their contents when a stamp differs. Plain JavaScript
// (type-checked through JSDoc), without zod: a command finds its own bundle with it before Node loads its
// TypeScript stripper or any schema library (bin.mjs); the manifests are the cache's own files, checked for shape.
// @ts-check
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { recordStamps, stampsMatch, stampsOf } from './input-stamps.mjs';

export const LATEST = 'latest.json';
export const MANIFEST = 'manifest.json';
export const STAMPS = 'stamps';

/**
 * An entry's manifest: its key and the files its build read (`latest.json` has the key only).
 * @typedef {{ key: string, inputs: string[] }} Manifest
 */

/**
 * The files an entry depends on, from the inputs its build reported.
 * @typedef {(inputs: readonly string[]) => string[]} KeyFiles
 */

/**
 * A manifest file, or null when it is missing or not one.
 * @param {string} file
 * @returns {Promise<Manifest | null>}
 */
const readManifest = async (file) => {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const { key, inputs } = JSON.parse(text);
    return typeof key === 'string' && Array.isArray(inputs) && inputs.every((i) => typeof i === 'string') ? { key, inputs } : null;
  } catch {
    return null;
  }
};

/**
 * The hash of the files (path and contents; a missing file counts as such).
 * @param {readonly string[]} files
 * @returns {Promise<string>}
 */
export const filesKey = async (files) => {
  const hash = createHash('sha256');
  const contents = await Promise.all(files.map((f) => readFile(f).catch(() => null)));
  files.forEach((file, i) => {
    const content = contents[i] ?? null;
    hash.update(`${file}\0${content === null ? 'missing' : content.length}\0`);
    if (content !== null) hash.update(content);
  });
  return hash.digest('hex').slice(0, 32);
};

/**
 * The entry `latest.json` names, when its files still hash to its key.
 * @param {string} cacheDir
 * @param {KeyFiles} keyFiles
 * @returns {Promise<string | null>}
 */
export const latestEntry = async (cacheDir, keyFiles) => {
  const latest = await readManifest(path.join(cacheDir, LATEST));
  if (latest === null) return null;
  const entry = path.join(cacheDir, latest.key);
  const manifest = await readManifest(path.join(entry, MANIFEST));
  if (manifest === null || manifest.key !== latest.key) return null;
  const files = keyFiles(manifest.inputs);
  // Taken before the contents are read: a file changed meanwhile no longer matches them next time.
  const stamps = await stampsOf(files);
  if (await stampsMatch(path.join(entry, STAMPS), stamps)) return entry;
  if ((await filesKey(files)) !== manifest.key) return null;
  // Only a shortcut for the next start: an entry pruned meanwhile, or a read-only cache, just goes without it.
  await recordStamps(path.join(entry, STAMPS), stamps).catch(() => undefined);
  return entry;
};
