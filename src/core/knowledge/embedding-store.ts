// Where document embeddings are kept between runs: content-addressed by embedder and text, so a changed
// document is embedded again and an unchanged one never is. Files for the CLI, D1 for the Worker.
import { sha256Hex } from '../py/index.ts';
import type { EmbedderSpec } from './embedder.ts';

export interface EmbeddingStore {
  /** The stored vector of each key, `undefined` where there is none. */
  getMany(keys: readonly string[]): Promise<(Float64Array | undefined)[]>;
  putMany(entries: readonly { readonly key: string; readonly vector: Float64Array }[]): Promise<void>;
}

/** `<provider>/<model>/<sha256 of the text>`, the provider as `<provider>@<endpoint>` for another endpoint. */
export const embeddingKey = (spec: EmbedderSpec, text: string, endpoint: string | null = null): string =>
  `${spec.provider}${endpoint === null ? '' : `@${endpoint}`}/${spec.model}/${sha256Hex(text)}`;

/** An in-memory store, for one isolate's lifetime or a test. */
export const memoryEmbeddingStore = (): EmbeddingStore & { readonly size: () => number } => {
  const vectors = new Map<string, Float64Array>();
  return {
    size: () => vectors.size,
    getMany: async (keys) => keys.map((key) => vectors.get(key)),
    async putMany(entries) {
      for (const { key, vector } of entries) vectors.set(key, vector);
    },
  };
};

/** A vector as little-endian float64 bytes, the stored form in files and D1. */
export const vectorToBytes = (vector: Float64Array): Uint8Array => {
  const bytes = new Uint8Array(vector.length * 8);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, i) => view.setFloat64(i * 8, value, true));
  return bytes;
};

export const bytesToVector = (bytes: Uint8Array): Float64Array => {
  if (bytes.byteLength % 8 !== 0) throw new Error(`embedding of ${bytes.byteLength} bytes is not a float64 vector`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float64Array.from({ length: bytes.byteLength / 8 }, (_, i) => view.getFloat64(i * 8, true));
};
