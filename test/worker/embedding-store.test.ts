// The D1 document-embedding store: a dense index built twice in workerd embeds its documents once, and the
// vectors come back bit for bit.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDenseIndex } from '../../src/core/knowledge/dense.ts';
import type { Embedder } from '../../src/core/knowledge/embedder.ts';
import { embeddingKey } from '../../src/core/knowledge/embedding-store.ts';
import { d1EmbeddingStore } from '../../src/worker/db/embeddings.ts';

/** Deterministic vectors with awkward float values; counts the texts it is asked to embed. */
const countingEmbedder = (): Embedder & { texts: string[] } => {
  const texts: string[] = [];
  return {
    spec: { provider: 'openai', model: 'text-embedding-3-large' },
    endpoint: null,
    texts,
    embed: async (batch) => {
      texts.push(...batch);
      return batch.map((text) => Array.from({ length: 8 }, (_, i) => Math.sin(text.length * (i + 1)) / 3 + (text.charCodeAt(i % text.length) || 0) * 1e-7));
    },
  };
};

// More documents than one D1 statement can look up or insert.
const docs = Array.from({ length: 200 }, (_, i) => ({ id: `doc_${i}`, title: `Doc ${i}`, content: `document number ${i} about fee ${i % 7}` }));

describe('D1 embedding store', () => {
  it('keeps document embeddings across index builds', async () => {
    const store = d1EmbeddingStore(env.DB);
    const first = countingEmbedder();
    const built = await createDenseIndex(docs, first, store);
    expect(built.embeddedOnBuild).toBe(200);
    expect(first.texts).toHaveLength(200);

    const second = countingEmbedder();
    const rebuilt = await createDenseIndex(docs, second, d1EmbeddingStore(env.DB));
    expect(rebuilt.embeddedOnBuild).toBe(0);
    expect(second.texts).toEqual([]);

    const [stored] = await store.getMany([embeddingKey(first.spec, docs[3]!.content)]);
    const [expected] = await countingEmbedder().embed([docs[3]!.content]);
    expect(Array.from(stored!)).toEqual(expected);
    const query = await rebuilt.embedQuery('fee 3');
    expect(rebuilt.rank(query)).toEqual(built.rank(query));
  });

  it('answers missing keys with undefined and ignores a second write of a key', async () => {
    const store = d1EmbeddingStore(env.DB);
    const vector = Float64Array.from([0.1, -2.5e-300, Number.MAX_VALUE]);
    await store.putMany([{ key: 'openai/m/abc', vector }]);
    await store.putMany([{ key: 'openai/m/abc', vector: Float64Array.from([9, 9, 9]) }]);
    const [found, missing] = await store.getMany(['openai/m/abc', 'openai/m/none']);
    expect(Array.from(found!)).toEqual([0.1, -2.5e-300, Number.MAX_VALUE]);
    expect(missing).toBeUndefined();
  });
});
