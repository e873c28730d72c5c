// The retrieval configurations of the banking_knowledge domain: for each name, its prompt template and the
// retrieval tools it gives the agent (reference: RetrievalVariant, RETRIEVAL_VARIANTS and resolve_variant in
// src/tau2/domains/banking_knowledge/retrieval.py). The retrieval tools themselves (KB_search, grep, shell)
// plug in through retrieval-tools.ts; a configuration that needs one that is not there is refused rather than
// run without it.
import type { PyValue } from '../../src/core/py/index.ts';
import { isPyFloat, pyRepr } from '../../src/core/py/index.ts';

export interface PipelineSpec {
  readonly type: 'embedding' | 'bm25';
  readonly embedderType: string | null;
  readonly embedderModel: string | null;
  readonly topK: number;
  readonly reranker: boolean;
  readonly rerankerMinScore: number;
}

export interface GrepSpec {
  readonly topK: number;
  readonly caseSensitive: boolean;
}

export interface ShellSpec {
  readonly allowWrites: boolean;
  readonly fileFormat: string;
}

/** How the policy is built: components only, the whole knowledge base inlined, or the task's documents. */
export type PromptKind = 'standard' | 'full_kb' | 'golden';

export interface RetrievalVariant {
  readonly name: string;
  /** The template's file stem under prompts/. */
  readonly template: string;
  readonly prompt: PromptKind;
  readonly kbSearch: PipelineSpec | null;
  readonly kbSearchBm25: PipelineSpec | null;
  readonly kbSearchDense: PipelineSpec | null;
  readonly grep: GrepSpec | null;
  readonly shell: ShellSpec | null;
  readonly supportsTopK: boolean;
}

export const DEFAULT_RETRIEVAL_CONFIG = 'alltools';
const OPENAI_EMBEDDING_MODEL = 'text-embedding-3-large';
const OPENROUTER_EMBEDDING_MODEL = 'qwen3-embedding-8b';

const pipeline = (type: PipelineSpec['type'], embedder: [string, string] | null = null, reranker = false): PipelineSpec => ({
  type,
  embedderType: embedder?.[0] ?? null,
  embedderModel: embedder?.[1] ?? null,
  topK: 10,
  reranker,
  rerankerMinScore: 5,
});
const OPENAI: [string, string] = ['openai', OPENAI_EMBEDDING_MODEL];
const QWEN: [string, string] = ['openrouter', OPENROUTER_EMBEDDING_MODEL];
const GREP: GrepSpec = { topK: 10, caseSensitive: false };
const shell = (allowWrites: boolean): ShellSpec => ({ allowWrites, fileFormat: 'md' });

const variant = (name: string, template: string, parts: Partial<RetrievalVariant> = {}): RetrievalVariant => ({
  name,
  template,
  prompt: 'standard',
  kbSearch: null,
  kbSearchBm25: null,
  kbSearchDense: null,
  grep: null,
  shell: null,
  supportsTopK: false,
  ...parts,
});

const allTools = (name: string, embedder: [string, string]): RetrievalVariant =>
  variant(name, 'all_tools', { kbSearchBm25: pipeline('bm25'), kbSearchDense: pipeline('embedding', embedder), shell: shell(false) });

/** Every configuration, in the reference's registry order. */
export const RETRIEVAL_VARIANTS: readonly RetrievalVariant[] = [
  variant('no_knowledge', 'no_knowledge'),
  variant('full_kb', 'full_kb', { prompt: 'full_kb' }),
  variant('golden_retrieval', 'required_docs', { prompt: 'golden' }),
  variant('qwen_embeddings_grep', 'classic_rag_qwen', { kbSearch: pipeline('embedding', QWEN), grep: GREP, supportsTopK: true }),
  variant('openai_embeddings_grep', 'classic_rag_openai', { kbSearch: pipeline('embedding', OPENAI), grep: GREP, supportsTopK: true }),
  variant('qwen_embeddings_reranker_grep', 'classic_rag_qwen', { kbSearch: pipeline('embedding', QWEN, true), grep: GREP, supportsTopK: true }),
  variant('openai_embeddings_reranker_grep', 'classic_rag_openai', { kbSearch: pipeline('embedding', OPENAI, true), grep: GREP, supportsTopK: true }),
  variant('bm25_grep', 'classic_rag_bm25', { kbSearch: pipeline('bm25'), grep: GREP, supportsTopK: true }),
  variant('bm25_reranker_grep', 'classic_rag_bm25', { kbSearch: pipeline('bm25', null, true), grep: GREP, supportsTopK: true }),
  variant('qwen_embeddings', 'classic_rag_qwen_no_grep', { kbSearch: pipeline('embedding', QWEN), supportsTopK: true }),
  variant('openai_embeddings', 'classic_rag_openai_no_grep', { kbSearch: pipeline('embedding', OPENAI), supportsTopK: true }),
  variant('qwen_embeddings_reranker', 'classic_rag_qwen_no_grep', { kbSearch: pipeline('embedding', QWEN, true), supportsTopK: true }),
  variant('openai_embeddings_reranker', 'classic_rag_openai_no_grep', { kbSearch: pipeline('embedding', OPENAI, true), supportsTopK: true }),
  variant('bm25', 'classic_rag_bm25_no_grep', { kbSearch: pipeline('bm25'), supportsTopK: true }),
  variant('bm25_reranker', 'classic_rag_bm25_no_grep', { kbSearch: pipeline('bm25', null, true), supportsTopK: true }),
  variant('grep_only', 'grep_only', { grep: GREP, supportsTopK: true }),
  variant('terminal_use', 'agentic_search', { shell: shell(false) }),
  variant('terminal_use_write', 'agentic_search_write', { shell: shell(true) }),
  allTools('alltools', OPENAI),
  allTools('alltools-qwen', QWEN),
];

/** Other spellings the reference accepts. */
const ALIASES: Readonly<Record<string, string>> = { AllTools: 'alltools' };

export const RETRIEVAL_CONFIG_NAMES: readonly string[] = RETRIEVAL_VARIANTS.map((v) => v.name);

const byName = new Map(RETRIEVAL_VARIANTS.map((v) => [v.name, v]));

/** `resolve_variant`: the configuration with `top_k`, `grep_top_k`, `case_sensitive`, `reranker_min_score` applied. */
export const resolveVariant = (name: string, kwargs: Readonly<Record<string, PyValue>> = {}): RetrievalVariant => {
  const found = byName.get(Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name);
  if (!found) {
    throw new Error(`Unknown retrieval variant: ${pyRepr(name)}. Available: ${pyRepr([...RETRIEVAL_CONFIG_NAMES].sort())}`);
  }
  const given = (key: string): number | boolean | undefined => {
    const value = kwargs[key];
    if (value === undefined || value === null) return undefined;
    return isPyFloat(value) ? value.value : (value as number | boolean);
  };
  const topK = given('top_k');
  const grepTopK = given('grep_top_k');
  const caseSensitive = given('case_sensitive');
  const minScore = given('reranker_min_score');
  const tuned = (spec: PipelineSpec | null): PipelineSpec | null =>
    spec && {
      ...spec,
      ...(topK === undefined ? {} : { topK: Number(topK) }),
      ...(minScore === undefined ? {} : { rerankerMinScore: Number(minScore) }),
    };
  return {
    ...found,
    kbSearch: tuned(found.kbSearch),
    kbSearchBm25: tuned(found.kbSearchBm25),
    kbSearchDense: tuned(found.kbSearchDense),
    grep: found.grep && {
      ...found.grep,
      ...(grepTopK === undefined ? {} : { topK: Number(grepTopK) }),
      ...(caseSensitive === undefined ? {} : { caseSensitive: Boolean(caseSensitive) }),
    },
  };
};

/** The retrieval tools a configuration gives the agent, by the reference's tool names. */
export const retrievalToolNames = (v: RetrievalVariant): string[] => {
  if (v.kbSearchBm25 && v.kbSearchDense && v.shell) return ['KB_search_bm25', 'KB_search_dense', 'shell'];
  if (v.shell) return ['shell'];
  return [...(v.kbSearch ? ['KB_search'] : []), ...(v.grep ? ['grep'] : [])];
};
