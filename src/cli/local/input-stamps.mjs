// A quick freshness check for a cache entry: the stamps (size, inode, modification and change times) of the files
// it was built from, taken before their contents last hashed to the entry's key. While every stamp still
// matches, the files are unchanged and need not be read again; any difference (an edit, a checkout, a copy)
// sends the caller back to hashing the contents, the rule that decides. Plain JavaScript (type-checked through
// JSDoc): a command checks its own bundle with it before Node loads its TypeScript stripper (latest-entry.mjs).
// @ts-check
import { createHash } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';

/**
 * One hash of the files' stamps; a missing file counts as such.
 * @param {readonly string[]} files
 * @returns {Promise<string>}
 */
export const stampsOf = async (files) => {
  const stamps = await Promise.all(files.map((f) => stat(f, { bigint: true }).catch(() => null)));
  const hash = createHash('sha256');
  files.forEach((file, i) => {
    const s = stamps[i] ?? null;
    hash.update(`${file}\0${s === null ? 'missing' : `${s.size}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}`}\0`);
  });
  return hash.digest('hex');
};

/**
 * Whether `stampsFile` records exactly these stamps.
 * @param {string} stampsFile
 * @param {string} stamps
 * @returns {Promise<boolean>}
 */
export const stampsMatch = async (stampsFile, stamps) => (await readFile(stampsFile, 'utf8').catch(() => null)) === stamps;

/**
 * Records stamps (whole or not at all: another process may be reading them).
 * @param {string} stampsFile
 * @param {string} stamps
 * @returns {Promise<void>}
 */
export const recordStamps = async (stampsFile, stamps) => {
  await writeFile(`${stampsFile}.${process.pid}`, stamps);
  await rename(`${stampsFile}.${process.pid}`, stampsFile);
};
