// Dense retrieval through the AI SDK embedder against a fake embeddings endpoint on 127.0.0.1: the requests,
// the cosine ranking, the document-embedding cache and provider failures.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fileEmbeddingStore } from '../../../src/cli/run/embedding-file-store.ts';
import { isToolError } from '../../../src/core/environment/errors.ts';
import { createDenseIndex } from '../../../src/core/knowledge/dense.ts';
import { OPENAI_EMBEDDINGS, QWEN_EMBEDDINGS, QWEN_QUERY_INSTRUCTION } from '../../../src/core/knowledge/embedder.ts';
import type { EmbedderSpec } from '../../../src/core/knowledge/embedder.ts';
import { memoryEmbeddingStore } from '../../../src/core/knowledge/embedding-store.ts';
import type { KnowledgeDocument } from '../../../src/core/knowledge/documents.ts';
import { createAiSdkEmbedder } from '../../../src/core/llm/embedder.ts';
import { embeddingUpperBound } from '../../../src/core/llm/budget.ts';
import type { SpendLedger } from '../../../src/core/llm/budget.ts';
import type { MeteredCall } from '../../../src/core/llm/meter.ts';
import { isRefusal } from '../../../src/core/runner/refusal.ts';
import { isInfraError } from '../../../src/core/llm/types.ts';
import { FAKE_DIMENSION, startFakeEmbeddings } from '../../support/fake-embeddings.ts';
import type { FakeEmbeddings } from '../../support/fake-embeddings.ts';
import { knowledgeDocuments } from '../../support/knowledge.ts';

const API_KEY = 'sk-embeddings-test-secret';
let fake: FakeEmbeddings;
let cacheDir: string;

beforeAll(async () => {
  fake = await startFakeEmbeddings();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.requests.length = 0;
  cacheDir = await mkdtemp(path.join(tmpdir(), 'tau2-embeddings-'));
  return () => rm(cacheDir, { recursive: true, force: true });
});

const embedder = (spec: EmbedderSpec = OPENAI_EMBEDDINGS) =>
  createAiSdkEmbedder({ spec, baseURL: fake.baseURL, apiKey: API_KEY, sleep: async () => {} });

const doc = (id: string, content: string): KnowledgeDocument => ({ id, title: id, content });
const corpus = [
  doc('wire', 'domestic wire transfer fee is fifteen dollars'),
  doc('card', 'lost card replacement ships in five days'),
  doc('wire-copy', 'domestic wire transfer fee is fifteen dollars'),
  doc('overdraft', 'overdraft protection fee waived for premium accounts'),
  doc('empty-ish', '!!!'),
];

describe('dense index', () => {
  it('embeds every document in one request with the reference model, then ranks queries by cosine', async () => {
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore());
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body).toMatchObject({ model: 'text-embedding-3-large', input: corpus.map((d) => d.content), encoding_format: 'float' });
    expect(index.dimension).toBe(FAKE_DIMENSION);

    const found = await index.search('wire transfer fee', 3);
    // Identical vectors tie: the later document comes first, as in the reference's reversed argsort.
    expect(found.map((r) => r.id)).toEqual(['wire-copy', 'wire', 'overdraft']);
    expect(found[0]!.score).toBeCloseTo(found[1]!.score, 15);
    expect(fake.requests[1]!.body.input).toEqual(['wire transfer fee']);
  });

  it('ranks a zero-vector document and an unrelated query at score 0, in reverse document order', async () => {
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore());
    const found = await index.search('zebra', 10);
    expect(found.map((r) => r.score)).toEqual([0, 0, 0, 0, 0]);
    expect(found.map((r) => r.id)).toEqual(['empty-ish', 'overdraft', 'wire-copy', 'card', 'wire']);
  });

  it('sends Qwen queries with the instruction and OpenRouter model name, documents without it', async () => {
    const index = await createDenseIndex(corpus, embedder(QWEN_EMBEDDINGS), memoryEmbeddingStore());
    await index.search('lost card');
    expect(fake.requests[0]!.body.model).toBe('qwen/qwen3-embedding-8b');
    expect(fake.requests[0]!.body.input).toEqual(corpus.map((d) => d.content));
    expect(fake.requests[1]!.body.input).toEqual([`Instruct: ${QWEN_QUERY_INSTRUCTION}\nQuery:lost card`]);
  });

  it('remembers query embeddings for the life of the index', async () => {
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore());
    await index.search('lost card');
    await index.search('lost card');
    expect(fake.requests).toHaveLength(2);
  });

  it('answers a blank query with the reference tool error, without calling the provider', async () => {
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore());
    const err = await index.search('  \n').catch((e: unknown) => e);
    expect(isToolError(err)).toBe(true);
    expect((err as Error).message).toBe("Empty or missing input for key 'query': cannot generate embedding from blank text.");
    expect(fake.requests).toHaveLength(1);
  });
});

describe('document-embedding cache', () => {
  it('makes no document calls on a second build over the 698 documents, and re-embeds only a changed one', async () => {
    const docs = await knowledgeDocuments();
    const first = await createDenseIndex(docs, embedder(), fileEmbeddingStore(cacheDir));
    expect(first.embeddedOnBuild).toBe(698);
    expect(fake.requests).toHaveLength(1);

    const second = await createDenseIndex(docs, embedder(), fileEmbeddingStore(cacheDir));
    expect(second.embeddedOnBuild).toBe(0);
    expect(fake.requests).toHaveLength(1);
    const query = 'domestic wire transfer fee';
    expect(await second.search(query)).toEqual(await first.search(query));

    const changed = docs.map((d, i) => (i === 5 ? { ...d, content: `${d.content}\nUpdated.` } : d));
    const third = await createDenseIndex(changed, embedder(), fileEmbeddingStore(cacheDir));
    expect(third.embeddedOnBuild).toBe(1);
    expect(fake.requests.at(-1)!.body.input).toEqual([changed[5]!.content]);
  });

  it('keeps embedders apart', async () => {
    const store = memoryEmbeddingStore();
    await createDenseIndex(corpus, embedder(OPENAI_EMBEDDINGS), store);
    const qwen = await createDenseIndex(corpus, embedder(QWEN_EMBEDDINGS), store);
    expect(qwen.embeddedOnBuild).toBe(corpus.length);
    expect(store.size()).toBe(2 * 4);
  });

  it('keeps endpoints apart: vectors from one endpoint (a tenant\'s proxy) never stand in for another\'s, nor for the provider\'s', async () => {
    const other = await startFakeEmbeddings();
    try {
      const store = memoryEmbeddingStore();
      const proxied = createAiSdkEmbedder({ spec: OPENAI_EMBEDDINGS, baseURL: other.baseURL, apiKey: API_KEY });
      expect(proxied.endpoint).toBe(new URL(other.baseURL).host);
      await createDenseIndex(corpus, proxied, store);
      const stored = store.size();
      const mine = await createDenseIndex(corpus, embedder(OPENAI_EMBEDDINGS), store);
      expect(mine.embeddedOnBuild).toBe(corpus.length);
      expect(store.size()).toBe(2 * stored);
      // The provider's own API is one endpoint for everyone: its vectors are shared.
      expect(createAiSdkEmbedder({ spec: OPENAI_EMBEDDINGS }).endpoint).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('provider failures', () => {
  it('retries a failing call and succeeds', async () => {
    fake.failNext(503, 2);
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore());
    expect(index.embeddedOnBuild).toBe(corpus.length);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after three attempts with an infrastructure error that names no secret', async () => {
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore());
    fake.failNext(500, 3);
    const err = await index.search('lost card').catch((e: unknown) => e);
    expect(isInfraError(err)).toBe(true);
    expect(isToolError(err)).toBe(false);
    expect((err as { retryable: boolean }).retryable).toBe(true);
    expect((err as Error).message).toMatch(/failed after 3 attempts: HTTP 500/);
    expect((err as Error).message).not.toContain(API_KEY);
    expect(fake.requests).toHaveLength(4);
  });

  it('does not retry a rejected key', async () => {
    fake.failNext(401);
    const err = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore()).catch((e: unknown) => e);
    expect(isInfraError(err)).toBe(true);
    expect((err as { retryable: boolean }).retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('cosine ranking parity', () => {
  it("ranks the fake endpoint's vectors as the reference's CosineRetriever does, ties included", async () => {
    const fixture = JSON.parse(
      await readFile(path.join(import.meta.dirname, '../../fixtures/knowledge-dense.json'), 'utf8'),
    ) as { dimension: number; cases: { query: string; results: [string, number][] }[] };
    expect(fixture.dimension).toBe(FAKE_DIMENSION);
    const index = await createDenseIndex(await knowledgeDocuments(), embedder(), memoryEmbeddingStore());
    for (const { query, results } of fixture.cases) {
      const found = await index.search(query);
      expect(found.map((r) => r.id), query).toEqual(results.map(([id]) => id));
      found.forEach((r, i) => expect(r.score).toBeCloseTo(results[i]![1], 12));
    }
  });
});

describe('embeddings calls under a spend ledger', () => {
  /** A ledger with `room` USD, recording what it reserves and settles. */
  const ledger = (room: number) => {
    const reserved: Array<{ model: string; upperBoundUsd: number }> = [];
    const settled: Array<[string, number]> = [];
    const port: SpendLedger = {
      reserve: async (call) => {
        if (call.upperBoundUsd > room) return { ok: false, message: 'Quota usd_per_day reached: spent' };
        reserved.push(call);
        return { ok: true, id: `r${reserved.length}` };
      },
      settle: async (id, cost) => void settled.push([id, cost]),
    };
    return { port, reserved, settled };
  };

  it('each call reserves its texts\' bound before the request and settles at the cost its meter records', async () => {
    const { port, reserved, settled } = ledger(1);
    const metered: MeteredCall[] = [];
    const index = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore(), { ledger: port, meter: (call) => metered.push(call) });
    await index.search('lost card', 3, { ledger: port, meter: (call) => metered.push(call) });
    expect(fake.requests).toHaveLength(2);
    const model = 'openai/text-embedding-3-large';
    expect(reserved).toEqual([
      { model, upperBoundUsd: embeddingUpperBound(model, corpus.map((d) => d.content)) },
      { model, upperBoundUsd: embeddingUpperBound(model, ['lost card']) },
    ]);
    expect(metered.map((c) => c.cost)).toEqual(settled.map(([, cost]) => cost));
    expect(settled.map(([id]) => id)).toEqual(['r1', 'r2']);
    expect(settled.every(([, cost], i) => cost > 0 && cost <= reserved[i]!.upperBoundUsd)).toBe(true);
  });

  it('a refused reservation sends no request and fails as a refusal', async () => {
    const { port, settled } = ledger(0);
    const error = await createDenseIndex(corpus, embedder(), memoryEmbeddingStore(), { ledger: port }).catch((e: unknown) => e);
    expect(isRefusal(error)).toBe(true);
    expect(fake.requests).toHaveLength(0);
    expect(settled).toEqual([]);
  });
});
