// Dense retrieval: documents embedded once (through the embedding store, so a second build makes no calls),
// queries embedded per search with the model's query instruction, documents ranked by cosine similarity.
import { ToolError } from '../environment/errors.ts';
import { DEFAULT_TOP_K } from './bm25.ts';
import { cosineScores, normalizeRows, rankCosine } from './cosine.ts';
import type { KnowledgeDocument, RankedDocument } from './documents.ts';
import type { EmbedCall, Embedder, EmbedderSpec } from './embedder.ts';
import { queryText } from './embedder.ts';
import type { EmbeddingStore } from './embedding-store.ts';
import { embeddingKey } from './embedding-store.ts';
import { isPyBlank } from './py-text.ts';

export interface DenseIndex {
  readonly spec: EmbedderSpec;
  readonly size: number;
  readonly dimension: number;
  /** How many document embeddings this build had to request (0 when the store had them all). */
  readonly embeddedOnBuild: number;
  /**
   * The query's vector (the latest QUERY_CACHE_SIZE are remembered, as the reference caches query embeddings);
   * an embeddings call it makes is reported and held to `call`.
   */
  embedQuery(query: string, call?: EmbedCall): Promise<Float64Array>;
  rank(queryVector: Float64Array, topK?: number): RankedDocument[];
  search(query: string, topK?: number, call?: EmbedCall): Promise<RankedDocument[]>;
}

/** The reference's message for a blank query, which reaches the agent as a tool error. */
export const blankQueryMessage = (key = 'query'): string =>
  `Empty or missing input for key '${key}': cannot generate embedding from blank text.`;

const embedMissing = async (
  docs: readonly KnowledgeDocument[],
  embedder: Embedder,
  store: EmbeddingStore,
  call: EmbedCall | undefined,
): Promise<{ vectors: Float64Array[]; embedded: number }> => {
  const keys = docs.map((doc) => embeddingKey(embedder.spec, doc.content, embedder.endpoint));
  const stored = await store.getMany(keys);
  const missing = docs.flatMap((doc, i) => (stored[i] === undefined ? [i] : []));
  if (missing.length > 0) {
    // Documents are embedded as they are, without the query instruction, in one batch like the reference's.
    const fresh = await embedder.embed(missing.map((i) => docs[i]!.content), call);
    if (fresh.length !== missing.length) {
      throw new Error(`embedder returned ${fresh.length} vectors for ${missing.length} documents`);
    }
    const entries = missing.map((docIndex, j) => {
      const vector = Float64Array.from(fresh[j]!);
      stored[docIndex] = vector;
      return { key: keys[docIndex]!, vector };
    });
    await store.putMany(entries);
  }
  return { vectors: stored as Float64Array[], embedded: missing.length };
};

/** Query vectors kept per index: an index lives as long as its isolate, so its cache is bounded. */
export const QUERY_CACHE_SIZE = 1_000;

export const createDenseIndex = async (
  docs: readonly KnowledgeDocument[],
  embedder: Embedder,
  store: EmbeddingStore,
  call?: EmbedCall,
): Promise<DenseIndex> => {
  if (docs.length === 0) throw new Error('Documents list is empty.');
  // The build's calls are reported to (and paid by) the search that started it (later searches share the index).
  const { vectors, embedded } = await embedMissing(docs, embedder, store, call);
  const matrix = normalizeRows(vectors);
  const queries = new Map<string, Float64Array>();

  const embedQuery = async (query: string, call?: EmbedCall): Promise<Float64Array> => {
    if (isPyBlank(query)) throw new ToolError(blankQueryMessage());
    let vector = queries.get(query);
    if (vector === undefined) {
      const [raw] = await embedder.embed([queryText(embedder.spec, query)], call);
      if (raw === undefined) throw new Error('embedder returned no vector for the query');
      vector = Float64Array.from(raw);
      if (queries.size >= QUERY_CACHE_SIZE) queries.delete(queries.keys().next().value!);
      queries.set(query, vector);
    }
    return vector;
  };

  const rank = (queryVector: Float64Array, topK = DEFAULT_TOP_K): RankedDocument[] => {
    const scores = cosineScores(matrix, queryVector);
    return rankCosine(scores, topK).map((i) => ({ id: docs[i]!.id, score: scores[i]! }));
  };

  return {
    spec: embedder.spec,
    size: docs.length,
    dimension: matrix.dimension,
    embeddedOnBuild: embedded,
    embedQuery,
    rank,
    search: async (query, topK, call) => rank(await embedQuery(query, call), topK),
  };
};
