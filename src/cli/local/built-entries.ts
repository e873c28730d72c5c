// Builds cached by their inputs (the Worker's bundle, the command line's own): each entry records the files it
// was built from (its manifest) and is named by the hash of their paths and contents; `latest.json` names the
// newest. A start reuses the latest entry while its files still hash to its name, checked by their stamps first
// (input-stamps.ts: hashing a whole bundle's sources takes a tenth of a second or more), and by their contents
// when a stamp differs.
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { commitEntry } from './cache-entries.ts';
import { recordStamps, stampsMatch, stampsOf } from './input-stamps.ts';

const LATEST = 'latest.json';
const MANIFEST = 'manifest.json';
const STAMPS = 'stamps';
/** Entry names: the key, a hex hash. */
const isEntry = (name: string): boolean => /^[0-9a-f]{32}$/.test(name);

const ManifestSchema = z.object({ key: z.string(), inputs: z.array(z.string()) });
type Manifest = z.infer<typeof ManifestSchema>;

/** The files an entry depends on, from the inputs its build reported. */
export type KeyFiles = (inputs: readonly string[]) => string[];

export const readJson = async <T>(file: string, schema: z.ZodType<T>): Promise<T | null> => {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
};

/** The hash of the files (path and contents; a missing file counts as such). */
const filesKey = async (files: readonly string[]): Promise<string> => {
  const hash = createHash('sha256');
  const contents = await Promise.all(files.map((f) => readFile(f).catch(() => null)));
  files.forEach((file, i) => {
    const content = contents[i] ?? null;
    hash.update(`${file}\0${content === null ? 'missing' : content.length}\0`);
    if (content !== null) hash.update(content);
  });
  return hash.digest('hex').slice(0, 32);
};

/** The entry `latest.json` names, when its files still hash to its key. */
export const latestEntry = async (cacheDir: string, keyFiles: KeyFiles): Promise<string | null> => {
  const latest = await readJson<Manifest>(path.join(cacheDir, LATEST), ManifestSchema);
  if (latest === null) return null;
  const entry = path.join(cacheDir, latest.key);
  const manifest = await readJson<Manifest>(path.join(entry, MANIFEST), ManifestSchema);
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
