// The texts the agent reads from the retrieval tools, byte for byte as the reference writes them.
import { formatFixed } from '../py/index.ts';
import type { KnowledgeDocument, RankedDocument } from './documents.ts';

/** Milliseconds spent in each retrieval stage, as the reference reports them to the agent. */
export interface RetrievalTiming {
  readonly inputPreprocessingMs: number;
  readonly retrievalMs: number;
  readonly postprocessingMs: number;
}

export const ZERO_TIMING: RetrievalTiming = { inputPreprocessingMs: 0, retrievalMs: 0, postprocessingMs: 0 };

/** Python's `results[:k]`, negative `k` included (it drops from the end). */
export const pySlice = <T>(items: readonly T[], k: number | undefined): T[] =>
  k === undefined ? [...items] : items.slice(0, k < 0 ? Math.max(0, items.length + k) : k);

const formatResultList = (results: readonly RankedDocument[], lookup: ReadonlyMap<string, KnowledgeDocument>): string =>
  results
    .map(({ id, score }, i) => {
      const doc = lookup.get(id);
      return (
        `${i + 1}. ${doc?.title || 'Untitled'}\n` +
        `   ID: ${id}\n` +
        `   Score: ${formatFixed(score, 4)}\n` +
        `   Content: ${doc?.content ?? ''}\n`
      );
    })
    .join('\n');

const timingLine = (timing: RetrievalTiming): string => {
  const total = timing.inputPreprocessingMs + timing.retrievalMs + timing.postprocessingMs;
  const reranking = timing.postprocessingMs > 0 ? `, reranking=${formatFixed(timing.postprocessingMs, 0)}ms` : '';
  return `\n\n[Timing: retrieval=${formatFixed(timing.retrievalMs, 0)}ms${reranking}, total=${formatFixed(total, 0)}ms]`;
};

/** The output of `KB_search`, `KB_search_bm25` and `KB_search_dense`. */
export const formatKbSearchResults = (
  results: readonly RankedDocument[],
  lookup: ReadonlyMap<string, KnowledgeDocument>,
  timing: RetrievalTiming,
): string =>
  (results.length === 0 ? 'No relevant documents found.' : formatResultList(results, lookup)) + timingLine(timing);

/** The output of `grep`. */
export const formatGrepResults = (
  pattern: string,
  results: readonly RankedDocument[],
  lookup: ReadonlyMap<string, KnowledgeDocument>,
): string => (results.length === 0 ? `No matches found for pattern: ${pattern}` : formatResultList(results, lookup));
