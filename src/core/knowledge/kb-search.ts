// One knowledge-base search as the reference's retrieval pipeline runs it for the KB_search tools: prepare the
// query (embed it, for dense retrieval), retrieve the retriever's top k, cut to the tool's `k`, rerank, and
// write the result text with each stage's time. The clock is passed in.
import type { Bm25Index } from './bm25.ts';
import type { DenseIndex } from './dense.ts';
import { loadCharacterNames } from './py-regex.ts';
import type { KnowledgeDocument, RankedDocument } from './documents.ts';
import { formatGrepResults, formatKbSearchResults, pySlice } from './format.ts';
import type { GrepIndex } from './grep.ts';
import type { EmbedCall } from './embedder.ts';

/** A retriever split into the pipeline's timed stages. */
export interface SearchStages<Prepared> {
  prepare(query: string): Prepared | Promise<Prepared>;
  retrieve(prepared: Prepared): RankedDocument[];
}

export const bm25Stages = (index: Bm25Index, topK?: number): SearchStages<string> => ({
  prepare: (query) => query,
  retrieve: (query) => index.search(query, topK),
});

export const denseStages = (index: DenseIndex, topK?: number, call?: EmbedCall): SearchStages<Float64Array> => ({
  prepare: (query) => index.embedQuery(query, call),
  retrieve: (vector) => index.rank(vector, topK),
});

export interface KbSearchOptions<Prepared> {
  readonly stages: SearchStages<Prepared>;
  readonly lookup: ReadonlyMap<string, KnowledgeDocument>;
  /** Milliseconds from any origin (`performance.now` in production). */
  readonly nowMs: () => number;
  /** The `_reranker` postprocessor, e.g. `rerankPointwise` bound to a model client. */
  readonly rerank?: (query: string, results: RankedDocument[]) => Promise<RankedDocument[]>;
}

/** The text of `KB_search(query)`, or of `KB_search_bm25` / `KB_search_dense(query, k)` when `k` is given. */
export const runKbSearch = async <Prepared>(options: KbSearchOptions<Prepared>, query: string, k?: number): Promise<string> => {
  const { stages, nowMs } = options;
  const prepareStart = nowMs();
  const prepared = await stages.prepare(query);
  const inputPreprocessingMs = nowMs() - prepareStart;
  const retrievalStart = nowMs();
  let results = pySlice(stages.retrieve(prepared), k);
  const retrievalMs = nowMs() - retrievalStart;
  const postStart = nowMs();
  if (options.rerank && results.length > 0) results = await options.rerank(query, results);
  // Measured even without a reranker, as the reference does: its text then shows `reranking=0ms` whenever the
  // clock moved between the two readings.
  const postprocessingMs = nowMs() - postStart;
  return formatKbSearchResults(results, options.lookup, { inputPreprocessingMs, retrievalMs, postprocessingMs });
};

/**
 * The text of `grep(pattern)`, over the `topK` documents with the most matches (the configuration's `grep_top_k`).
 * Async only to load the Unicode name table when the pattern has a `\N{name}`.
 */
export const runGrep = async (index: GrepIndex, lookup: ReadonlyMap<string, KnowledgeDocument>, pattern: string, topK?: number): Promise<string> =>
  formatGrepResults(pattern, index.search(pattern, topK, await loadCharacterNames(pattern)), lookup);
