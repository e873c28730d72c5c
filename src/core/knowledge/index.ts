// Retrieval for knowledge-base domains: BM25, grep, dense embeddings, a simulated shell, and the texts the
// agent reads from them.
export { KnowledgeDocumentSchema, documentLookup, inIndexOrder } from './documents.ts';
export type { KnowledgeDocument, RankedDocument } from './documents.ts';
export { DEFAULT_TOP_K, createBm25Index } from './bm25.ts';
export type { Bm25Index } from './bm25.ts';
export { createGrepIndex } from './grep.ts';
export type { GrepIndex, GrepOptions } from './grep.ts';
export { ZERO_TIMING, formatGrepResults, formatKbSearchResults, pySlice } from './format.ts';
export type { RetrievalTiming } from './format.ts';
export { OPENAI_EMBEDDINGS, QWEN_EMBEDDINGS, QWEN_QUERY_INSTRUCTION, apiModelName, queryText } from './embedder.ts';
export type { Embedder, EmbedderSpec } from './embedder.ts';
export { embeddingKey, memoryEmbeddingStore } from './embedding-store.ts';
export type { EmbeddingStore } from './embedding-store.ts';
export { blankQueryMessage, createDenseIndex } from './dense.ts';
export type { DenseIndex } from './dense.ts';
export { POINTWISE_RERANKER_PROMPT, RERANKER_DEFAULTS, rerankPointwise, rerankerRequest } from './reranker.ts';
export type { PointwiseRerankerOptions } from './reranker.ts';
export { DEFAULT_KB_FILE_FORMAT, exportKbFiles, kbFileName } from './kb-files.ts';
export type { KbFileFormat } from './kb-files.ts';
export { escapePattern, refusalMessage } from './shell-guard.ts';
export { EMPTY_SHELL_STATE, KB_DIR, SHELL_COMMANDS, ShellStateSchema, TIMED_OUT, createShell, formatShellResult } from './shell.ts';
export type { KnowledgeShell, ShellMode, ShellOptions, ShellResult, ShellState } from './shell.ts';
export { bm25Stages, denseStages, runGrep, runKbSearch } from './kb-search.ts';
export type { KbSearchOptions, SearchStages } from './kb-search.ts';
export {
  DEFAULT_RETRIEVAL_CONFIG,
  RETRIEVAL_CONFIGS,
  RETRIEVAL_CONFIG_NAMES,
  RetrievalConfigKwargsSchema,
  RetrievalConfigNameSchema,
  resolveRetrievalConfig,
} from './configs.ts';
export type { KbSearchSpec, RetrievalConfig, RetrievalConfigKwargs, RetrievalConfigName } from './configs.ts';
