// The CLI's document-embedding cache: one file of little-endian float64 values per embedder and text, at
// `<dir>/<provider>/<model>/<sha256 of the text>.f64` (by default data/.embeddings_cache, where the reference
// keeps its own cache).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bytesToVector, vectorToBytes } from '../../core/knowledge/embedding-store.ts';
import type { EmbeddingStore } from '../../core/knowledge/embedding-store.ts';
import { dataDir } from '../data.ts';

/** TAU2_EMBEDDINGS_CACHE_DIR, else data/.embeddings_cache. */
export const defaultEmbeddingCacheDir = (): string => process.env.TAU2_EMBEDDINGS_CACHE_DIR ?? path.join(dataDir(), '..', '.embeddings_cache');

const isMissing = (err: unknown): boolean => (err as { code?: unknown }).code === 'ENOENT';

export const fileEmbeddingStore = (dir: string = defaultEmbeddingCacheDir()): EmbeddingStore => {
  // Keys are `<provider>/<model>/<hex>`; a model name with a path separator stays one directory level.
  const fileOf = (key: string): string => {
    const first = key.indexOf('/');
    const last = key.lastIndexOf('/');
    const [provider, model] = [key.slice(0, first), key.slice(first + 1, last)].map((part) => part.replace(/[^\w.@-]/g, '_'));
    return path.join(dir, provider!, model!, `${key.slice(last + 1)}.f64`);
  };
  return {
    getMany: (keys) =>
      Promise.all(
        keys.map(async (key) => {
          try {
            return bytesToVector(new Uint8Array(await readFile(fileOf(key))));
          } catch (err) {
            if (isMissing(err)) return undefined;
            throw err;
          }
        }),
      ),
    async putMany(entries) {
      for (const { key, vector } of entries) {
        const file = fileOf(key);
        await mkdir(path.dirname(file), { recursive: true });
        // Written aside and renamed, so a concurrent reader never sees half a vector.
        const partial = `${file}.${process.pid}.partial`;
        await writeFile(partial, vectorToBytes(vector));
        await rename(partial, file);
      }
    },
  };
};
