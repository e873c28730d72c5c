// Which files under a folder hold a given text (a secret that must not be on disk), read as bytes.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every file under `dir` (recursively; none when it does not exist) whose bytes hold `text`. */
export const filesHolding = async (dir: string, text: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const holding = await Promise.all(files.map(async (file) => ((await readFile(file).catch(() => Buffer.alloc(0))).includes(text) ? file : null)));
  return holding.filter((file) => file !== null);
};
