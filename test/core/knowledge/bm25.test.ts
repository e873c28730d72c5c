// BM25 rankings and KB_search texts against the reference's pipeline (test/fixtures/knowledge-retrieval.json).
import { describe, expect, it } from 'vitest';
import { createBm25Index } from '../../../src/core/knowledge/bm25.ts';
import { documentLookup } from '../../../src/core/knowledge/documents.ts';
import { formatKbSearchResults, pySlice } from '../../../src/core/knowledge/format.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';
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

describe('KB_search output', () => {
  const lookup = documentLookup(docs);
  for (const c of fixture.bm25_formatted) {
    it(`formats ${JSON.stringify(c.query)} (k=${c.top_k}) byte for byte`, () => {
      const timing = {
        inputPreprocessingMs: c.timing.input_preprocessing_ms,
        retrievalMs: c.timing.retrieval_ms,
        postprocessingMs: c.timing.postprocessing_ms,
      };
      const text = formatKbSearchResults(pySlice(index.search(c.query), c.top_k ?? undefined), lookup, timing);
      if (c.output !== undefined) expect(text).toBe(c.output);
      else {
        if (c.output_tail) expect(text.endsWith(c.output_tail)).toBe(true);
        expect(text.length).toBe(c.output_length);
        expect(sha256Hex(text)).toBe(c.output_sha256);
      }
    });
  }
});
