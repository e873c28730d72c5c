// Build caches of the local worker (its bundle, its migrated database): each entry is a folder named by a hash
// of what it was built from, built in a staging folder of its own and moved into place whole, so that processes
// building the same entry at once (test files, two CLIs) never see half of one.
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Entries kept: a local worker started from an older one a moment ago may still be reading it. */
const ENTRIES_KEPT = 3;
const STAGING = 'building-';
/** A staging folder still there after this long was abandoned (its process ended); a build takes seconds. */
const ABANDONED_AFTER_MS = 30 * 60_000;

/** A new staging folder in `cacheDir`, for `commitEntry`. */
export const stagingFolder = async (cacheDir: string): Promise<string> => {
  await mkdir(cacheDir, { recursive: true });
  return mkdtemp(path.join(cacheDir, STAGING));
};

/** Removes all but the newest entries (by when they were built) and abandoned staging folders; `keep` stays. */
const prune = async (cacheDir: string, keep: string, isEntry: (name: string) => boolean): Promise<void> => {
  const names = (await readdir(cacheDir)).filter((n) => n !== keep && (n.startsWith(STAGING) || isEntry(n)));
  const dated = await Promise.all(names.map(async (n) => ({ n, at: (await stat(path.join(cacheDir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  const old = [
    ...dated.filter(({ n }) => !n.startsWith(STAGING)).sort((a, b) => b.at - a.at).slice(ENTRIES_KEPT - 1),
    ...dated.filter(({ n, at }) => n.startsWith(STAGING) && Date.now() - at > ABANDONED_AFTER_MS),
  ];
  await Promise.all(old.map(({ n }) => rm(path.join(cacheDir, n), { recursive: true, force: true })));
};

/**
 * Moves a built staging folder to the entry `key` (when another process built it first, its entry is as good and
 * the staging folder goes), then prunes older entries (the names `isEntry` accepts). Answers the entry's folder.
 */
export const commitEntry = async (cacheDir: string, staging: string, key: string, isEntry: (name: string) => boolean): Promise<string> => {
  const entry = path.join(cacheDir, key);
  try {
    await rename(staging, entry);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
  await prune(cacheDir, key, isEntry);
  return entry;
};
