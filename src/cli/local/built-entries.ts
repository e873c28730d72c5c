// Builds cached by their inputs (the Worker's bundle, the command line's own): each entry records the files it
// was built from (its manifest) and is named by the hash of their paths and contents; `latest.json` names the
// newest. A start reuses the latest entry while its files still hash to its name (latest-entry.mjs).
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { commitEntry } from './cache-entries.ts';
import { stampsOf } from './input-stamps.mjs';
import { LATEST, MANIFEST, STAMPS, filesKey } from './latest-entry.mjs';
import type { KeyFiles, Manifest } from './latest-entry.mjs';

/** Entry names: the key, a hex hash. */
const isEntry = (name: string): boolean => /^[0-9a-f]{32}$/.test(name);

export const readJson = async <T>(file: string, schema: z.ZodType<T>): Promise<T | null> => {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
};

/**
 * Names a build in its staging folder by its files, moves it into place and makes it the latest; concurrent
 * builders of the same inputs end with the same entry. Answers the entry's folder.
 */
export const commitBuild = async (cacheDir: string, staging: string, keyFiles: KeyFiles, inputs: readonly string[]): Promise<string> => {
  const files = keyFiles(inputs);
  const stamps = await stampsOf(files);
  const key = await filesKey(files);
  await writeFile(path.join(staging, MANIFEST), JSON.stringify({ key, inputs: [...inputs] } satisfies Manifest));
  await writeFile(path.join(staging, STAMPS), stamps);
  const entry = await commitEntry(cacheDir, staging, key, isEntry);
  const latest = path.join(cacheDir, `${LATEST}.${path.basename(staging)}`);
  await writeFile(latest, JSON.stringify({ key, inputs: [] } satisfies Manifest));
  await rename(latest, path.join(cacheDir, LATEST));
  return entry;
};
