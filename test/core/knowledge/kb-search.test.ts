// One KB_search as the reference's pipeline runs it: stages timed by the given clock, the tool's k applied
// after retrieval, the reranker after that.
import { describe, expect, it } from 'vitest';
import { createBm25Index } from '../../../src/core/knowledge/bm25.ts';
import { createDenseIndex } from '../../../src/core/knowledge/dense.ts';
import { documentLookup } from '../../../src/core/knowledge/documents.ts';
import type { RankedDocument } from '../../../src/core/knowledge/documents.ts';
import { bm25Stages, denseStages, runKbSearch } from '../../../src/core/knowledge/kb-search.ts';
import { memoryEmbeddingStore } from '../../../src/core/knowledge/embedding-store.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';
import { knowledgeDocuments, retrievalFixture } from '../../support/knowledge.ts';

const docs = await knowledgeDocuments();
const lookup = documentLookup(docs);
const fixture = await retrievalFixture();
const bm25 = createBm25Index(docs);

/** A clock whose six readings make the stages last the given times. */
const stageClock = (inputMs: number, retrievalMs: number, postMs: number) => {
  const readings = [0, inputMs, 0, retrievalMs, 0, postMs];
  return () => {
    const next = readings.shift();
    if (next === undefined) throw new Error('clock read more than six times');
    return next;
  };
};

describe('runKbSearch', () => {
  for (const c of fixture.bm25_formatted) {
    it(`gives the reference text for ${JSON.stringify(c.query)} (k=${c.top_k})`, async () => {
      const { input_preprocessing_ms: i, retrieval_ms: r, postprocessing_ms: p } = c.timing;
      const text = await runKbSearch({ stages: bm25Stages(bm25), lookup, nowMs: stageClock(i, r, p) }, c.query, c.top_k ?? undefined);
      if (c.output !== undefined) expect(text).toBe(c.output);
      else expect(sha256Hex(text)).toBe(c.output_sha256);
    });
  }

  it('cuts to k after the retriever’s own top 10, then reranks', async () => {
    const seen: RankedDocument[][] = [];
    const rerank = async (_q: string, results: RankedDocument[]) => {
      seen.push(results);
      return [{ id: results[1]!.id, score: 9 }];
    };
    const text = await runKbSearch({ stages: bm25Stages(bm25), lookup, nowMs: stageClock(0, 1, 250), rerank }, 'annual fee', 25);
    expect(seen[0]).toHaveLength(10);
    expect(text).toMatch(/^1\. .+\n {3}ID: .+\n {3}Score: 9\.0000\n/);
    expect(text.endsWith('[Timing: retrieval=1ms, reranking=250ms, total=251ms]')).toBe(true);
  });

  it('times the query embedding of dense search as input preprocessing', async () => {
    const embedder = {
      spec: { provider: 'openai', model: 'm' } as const,
      endpoint: null,
      embed: async (texts: readonly string[]) => texts.map((t) => [t.length % 7, 1, t.includes('fee') ? 3 : 0]),
    };
    const dense = await createDenseIndex(docs.slice(0, 20), embedder, memoryEmbeddingStore());
    const text = await runKbSearch({ stages: denseStages(dense, 3), lookup, nowMs: stageClock(40, 2, 0) }, 'fee');
    expect(text.split('\n   ID: ')).toHaveLength(4);
    expect(text.endsWith('[Timing: retrieval=2ms, total=42ms]')).toBe(true);
  });
});
