// BM25 retrieval with the reference's scores: Okapi BM25 (k1 = 1.5, b = 0.75, idf floor ε = 0.25 × mean idf)
// over `lower().split()` tokens. Hand-written rather than taken from a search library because parity needs
// the same arithmetic in the same order (idf mean summed in first-seen term order, each query token's term
// added in query order, repeated query tokens counted again) and the same tie order (document order).
import type { KnowledgeDocument, RankedDocument } from './documents.ts';
import { bm25Tokens, isPyBlank } from './py-text.ts';

export const BM25_K1 = 1.5;
export const BM25_B = 0.75;
export const BM25_EPSILON = 0.25;
/** The reference's retriever default (`top_k=10`). */
export const DEFAULT_TOP_K = 10;

interface Posting {
  readonly doc: number;
  readonly freq: number;
}

export interface Bm25Index {
  readonly size: number;
  /** The `topK` best documents, score descending, ties in document order; blank queries find nothing. */
  search(query: string, topK?: number): RankedDocument[];
  /** Each document's score for the query, in document order. */
  scores(query: string): Float64Array;
}

/** Indices sorted by score descending; equal scores keep their order (Python's stable `sorted(reverse=True)`). */
export const rankByScore = (scores: ArrayLike<number>, topK: number): number[] => {
  const order = Array.from({ length: scores.length }, (_, i) => i);
  order.sort((a, b) => (scores[b]! > scores[a]! ? 1 : scores[b]! < scores[a]! ? -1 : 0));
  return order.slice(0, Math.max(0, Math.min(topK, scores.length)));
};

export const createBm25Index = (docs: readonly KnowledgeDocument[]): Bm25Index => {
  const ids = docs.map((doc) => doc.id);
  const postings = new Map<string, Posting[]>();
  const lengths = new Float64Array(docs.length);
  let totalLength = 0;
  docs.forEach((doc, index) => {
    const tokens = bm25Tokens(doc.content);
    lengths[index] = tokens.length;
    totalLength += tokens.length;
    const freqs = new Map<string, number>();
    for (const token of tokens) freqs.set(token, (freqs.get(token) ?? 0) + 1);
    for (const [token, freq] of freqs) {
      const list = postings.get(token);
      if (list) list.push({ doc: index, freq });
      else postings.set(token, [{ doc: index, freq }]);
    }
  });
  const corpusSize = docs.length;
  const avgdl = totalLength / corpusSize;

  const idf = new Map<string, number>();
  let idfSum = 0;
  const negative: string[] = [];
  for (const [token, list] of postings) {
    const value = Math.log(corpusSize - list.length + 0.5) - Math.log(list.length + 0.5);
    idf.set(token, value);
    idfSum += value;
    if (value < 0) negative.push(token);
  }
  const eps = BM25_EPSILON * (idfSum / idf.size);
  for (const token of negative) idf.set(token, eps);

  // k1 × (1 − b + b × |d| / avgdl), evaluated as the reference does.
  const lengthNorm = Float64Array.from(lengths, (len) => BM25_K1 * (1 - BM25_B + (BM25_B * len) / avgdl));

  const scores = (query: string): Float64Array => {
    const result = new Float64Array(corpusSize);
    for (const token of bm25Tokens(query)) {
      const weight = idf.get(token) ?? 0;
      for (const { doc, freq } of postings.get(token) ?? []) {
        result[doc]! += weight * ((freq * (BM25_K1 + 1)) / (freq + lengthNorm[doc]!));
      }
    }
    return result;
  };

  return {
    size: corpusSize,
    scores,
    search(query, topK = DEFAULT_TOP_K) {
      if (isPyBlank(query)) return [];
      const all = scores(query);
      return rankByScore(all, topK).map((index) => ({ id: ids[index]!, score: all[index]! }));
    },
  };
};
