// The retrieval configurations of banking_knowledge (`--retrieval-config` / `retrieval_config`): which
// retrieval tools each one gives the agent and how they are set up. Prompts belong to the domain.
import { z } from 'zod';
import type { EmbedderSpec } from './embedder.ts';
import { OPENAI_EMBEDDINGS, QWEN_EMBEDDINGS } from './embedder.ts';
import type { KbFileFormat } from './kb-files.ts';
import type { ShellMode } from './shell.ts';

export const RETRIEVAL_CONFIG_NAMES = [
  'no_knowledge', 'full_kb', 'golden_retrieval',
  'qwen_embeddings_grep', 'openai_embeddings_grep', 'qwen_embeddings_reranker_grep', 'openai_embeddings_reranker_grep',
  'bm25_grep', 'bm25_reranker_grep',
  'qwen_embeddings', 'openai_embeddings', 'qwen_embeddings_reranker', 'openai_embeddings_reranker',
  'bm25', 'bm25_reranker', 'grep_only', 'terminal_use', 'terminal_use_write', 'alltools', 'alltools-qwen',
] as const;

/** A configuration name as the API and the CLI accept it (`AllTools` is the reference's alias of `alltools`). */
export const RetrievalConfigNameSchema = z
  .enum([...RETRIEVAL_CONFIG_NAMES, 'AllTools'])
  .transform((name) => (name === 'AllTools' ? 'alltools' : name));
export type RetrievalConfigName = (typeof RETRIEVAL_CONFIG_NAMES)[number];

export const DEFAULT_RETRIEVAL_CONFIG: RetrievalConfigName = 'alltools';

/** The overrides of `retrieval_config_kwargs`. */
export const RetrievalConfigKwargsSchema = z
  .object({
    top_k: z.number().int().min(1).max(698).optional(),
    grep_top_k: z.number().int().min(1).max(698).optional(),
    case_sensitive: z.boolean().optional(),
    reranker_min_score: z.number().int().min(0).max(10).optional(),
  })
  .strict();
export type RetrievalConfigKwargs = z.infer<typeof RetrievalConfigKwargsSchema>;

export interface KbSearchSpec {
  readonly kind: 'bm25' | 'dense';
  /** For dense search. */
  readonly embedder?: EmbedderSpec;
  readonly topK: number;
  /** The pointwise LLM reranker's minimum rating, when the configuration reranks. */
  readonly rerankMinScore: number | null;
}

export interface RetrievalConfig {
  readonly name: RetrievalConfigName;
  /** `KB_search(query)`. */
  readonly kbSearch: KbSearchSpec | null;
  /** `KB_search_bm25(query, k)` and `KB_search_dense(query, k)` of the all-tools configurations. */
  readonly kbSearchBm25: KbSearchSpec | null;
  readonly kbSearchDense: KbSearchSpec | null;
  /** `grep(pattern)`. */
  readonly grep: { readonly topK: number; readonly caseSensitive: boolean } | null;
  /** `shell(command)`. */
  readonly shell: { readonly mode: ShellMode; readonly format: KbFileFormat } | null;
  /** Whether `top_k` applies (the reference's `supports_top_k`). */
  readonly supportsTopK: boolean;
}

const DEFAULT_MIN_SCORE = 5;
const bm25: KbSearchSpec = { kind: 'bm25', topK: 10, rerankMinScore: null };
const dense = (embedder: EmbedderSpec): KbSearchSpec => ({ kind: 'dense', embedder, topK: 10, rerankMinScore: null });
const reranked = (spec: KbSearchSpec): KbSearchSpec => ({ ...spec, rerankMinScore: DEFAULT_MIN_SCORE });
const GREP = { topK: 10, caseSensitive: false };

const config = (name: RetrievalConfigName, parts: Partial<Omit<RetrievalConfig, 'name'>>): RetrievalConfig => ({
  name,
  kbSearch: null,
  kbSearchBm25: null,
  kbSearchDense: null,
  grep: null,
  shell: null,
  supportsTopK: false,
  ...parts,
});
const classic = (name: RetrievalConfigName, kbSearch: KbSearchSpec, withGrep: boolean): RetrievalConfig =>
  config(name, { kbSearch, grep: withGrep ? GREP : null, supportsTopK: true });
const allTools = (name: RetrievalConfigName, embedder: EmbedderSpec): RetrievalConfig =>
  config(name, { kbSearchBm25: bm25, kbSearchDense: dense(embedder), shell: { mode: 'read', format: 'md' } });

export const RETRIEVAL_CONFIGS: Readonly<Record<RetrievalConfigName, RetrievalConfig>> = {
  no_knowledge: config('no_knowledge', {}),
  full_kb: config('full_kb', {}),
  golden_retrieval: config('golden_retrieval', {}),
  qwen_embeddings_grep: classic('qwen_embeddings_grep', dense(QWEN_EMBEDDINGS), true),
  openai_embeddings_grep: classic('openai_embeddings_grep', dense(OPENAI_EMBEDDINGS), true),
  qwen_embeddings_reranker_grep: classic('qwen_embeddings_reranker_grep', reranked(dense(QWEN_EMBEDDINGS)), true),
  openai_embeddings_reranker_grep: classic('openai_embeddings_reranker_grep', reranked(dense(OPENAI_EMBEDDINGS)), true),
  bm25_grep: classic('bm25_grep', bm25, true),
  bm25_reranker_grep: classic('bm25_reranker_grep', reranked(bm25), true),
  qwen_embeddings: classic('qwen_embeddings', dense(QWEN_EMBEDDINGS), false),
  openai_embeddings: classic('openai_embeddings', dense(OPENAI_EMBEDDINGS), false),
  qwen_embeddings_reranker: classic('qwen_embeddings_reranker', reranked(dense(QWEN_EMBEDDINGS)), false),
  openai_embeddings_reranker: classic('openai_embeddings_reranker', reranked(dense(OPENAI_EMBEDDINGS)), false),
  bm25: classic('bm25', bm25, false),
  bm25_reranker: classic('bm25_reranker', reranked(bm25), false),
  grep_only: config('grep_only', { grep: GREP, supportsTopK: true }),
  terminal_use: config('terminal_use', { shell: { mode: 'read', format: 'md' } }),
  terminal_use_write: config('terminal_use_write', { shell: { mode: 'write', format: 'md' } }),
  alltools: allTools('alltools', OPENAI_EMBEDDINGS),
  'alltools-qwen': allTools('alltools-qwen', QWEN_EMBEDDINGS),
};

const withOverrides = (spec: KbSearchSpec | null, kwargs: RetrievalConfigKwargs): KbSearchSpec | null =>
  spec && {
    ...spec,
    topK: kwargs.top_k ?? spec.topK,
    rerankMinScore: spec.rerankMinScore === null ? null : (kwargs.reranker_min_score ?? spec.rerankMinScore),
  };

/** A configuration with the `retrieval_config_kwargs` overrides applied (the reference's `resolve_variant`). */
export const resolveRetrievalConfig = (name: RetrievalConfigName, kwargs: RetrievalConfigKwargs = {}): RetrievalConfig => {
  const base = RETRIEVAL_CONFIGS[name];
  return {
    ...base,
    kbSearch: withOverrides(base.kbSearch, kwargs),
    kbSearchBm25: withOverrides(base.kbSearchBm25, kwargs),
    kbSearchDense: withOverrides(base.kbSearchDense, kwargs),
    grep: base.grep && {
      topK: kwargs.grep_top_k ?? base.grep.topK,
      caseSensitive: kwargs.case_sensitive ?? base.grep.caseSensitive,
    },
  };
};
