// BM25 rankings against the reference's pipeline (test/fixtures/knowledge-retrieval.json).
import { describe, expect, it } from 'vitest';
import { createBm25Index } from '../../../src/core/knowledge/bm25.ts';
import { knowledgeDocuments, retrievalFixture } from '../../support/knowledge.ts';

const docs = await knowledgeDocuments();
const fixture = await retrievalFixture();
const index = createBm25Index(docs);

describe('BM25 index over the 698 documents', () => {
  it('has the whole knowledge base', () => {
    expect(docs).toHaveLength(698);
    expect(index.size).toBe(698);
  });

  it('covers at least 50 reference queries, ties and no-match queries among them', () => {
    expect(fixture.bm25.length).toBeGreaterThanOrEqual(50);
    const withTies = fixture.bm25.filter(({ results }) => results.some(([, s], i) => i > 0 && s === results[i - 1]![1]));
    expect(withTies.length).toBeGreaterThan(5);
  });

  for (const { query, results } of fixture.bm25) {
    it(`ranks ${JSON.stringify(query)} as the reference does`, () => {
      const found = index.search(query);
      expect(found.map((r) => r.id)).toEqual(results.map(([id]) => id));
      found.forEach((r, i) => expect(r.score).toBeCloseTo(results[i]![1], 9));
    });
  }
});
