// The retrieval configurations of the banking_knowledge domain as the domain sees them: for each name, its prompt
// template, how the policy is built, and the retrieval tools it gives the agent (reference: RETRIEVAL_VARIANTS,
// RETRIEVAL_VARIANT_ALIASES and the prompt builders in src/tau2/domains/banking_knowledge/retrieval.py). How
// each retrieval tool is set up (pipelines, top_k, reranking, the shell) belongs to the retrieval library, which
// also owns the names, their order and the default; the tools plug in through retrieval-tools.ts.
import { pyRepr } from '../../src/core/py/index.ts';
import { RETRIEVAL_CONFIG_NAMES, RetrievalConfigNameSchema } from '../../src/core/knowledge/configs.ts';
import type { RetrievalConfigName } from '../../src/core/knowledge/configs.ts';

/** How the policy is built: components only, the whole knowledge base inlined, or the task's documents. */
export type PromptKind = 'standard' | 'full_kb' | 'golden';

/** The dense retriever an all-tools prompt names. */
export interface DenseEmbedder {
  readonly provider: string;
  readonly model: string;
}

export interface RetrievalVariant {
  readonly name: RetrievalConfigName;
  /** The template's file stem under prompts/. */
  readonly template: string;
  readonly prompt: PromptKind;
  /** The retrieval tools it gives the agent, by the reference's tool names, in the reference's order. */
  readonly tools: readonly string[];
  /** Set for the all-tools configurations, whose prompt names their dense retriever. */
  readonly dense: DenseEmbedder | null;
}

const OPENAI: DenseEmbedder = { provider: 'OpenAI API', model: 'text-embedding-3-large' };
const QWEN: DenseEmbedder = { provider: 'OpenRouter', model: 'qwen3-embedding-8b' };
const KB_GREP = ['KB_search', 'grep'];
const KB = ['KB_search'];

type VariantParts = Omit<RetrievalVariant, 'name'>;

const variant = (template: string, tools: readonly string[] = [], prompt: PromptKind = 'standard'): VariantParts => ({
  template,
  prompt,
  tools,
  dense: null,
});

const allTools = (dense: DenseEmbedder): VariantParts => ({ ...variant('all_tools', ['KB_search_bm25', 'KB_search_dense', 'shell']), dense });

/** Each configuration the retrieval library names, as the domain sets it up. */
const VARIANTS: Readonly<Record<RetrievalConfigName, VariantParts>> = {
  no_knowledge: variant('no_knowledge'),
  full_kb: variant('full_kb', [], 'full_kb'),
  golden_retrieval: variant('required_docs', [], 'golden'),
  qwen_embeddings_grep: variant('classic_rag_qwen', KB_GREP),
  openai_embeddings_grep: variant('classic_rag_openai', KB_GREP),
  qwen_embeddings_reranker_grep: variant('classic_rag_qwen', KB_GREP),
  openai_embeddings_reranker_grep: variant('classic_rag_openai', KB_GREP),
  bm25_grep: variant('classic_rag_bm25', KB_GREP),
  bm25_reranker_grep: variant('classic_rag_bm25', KB_GREP),
  qwen_embeddings: variant('classic_rag_qwen_no_grep', KB),
  openai_embeddings: variant('classic_rag_openai_no_grep', KB),
  qwen_embeddings_reranker: variant('classic_rag_qwen_no_grep', KB),
  openai_embeddings_reranker: variant('classic_rag_openai_no_grep', KB),
  bm25: variant('classic_rag_bm25_no_grep', KB),
  bm25_reranker: variant('classic_rag_bm25_no_grep', KB),
  grep_only: variant('grep_only', ['grep']),
  terminal_use: variant('agentic_search', ['shell']),
  terminal_use_write: variant('agentic_search_write', ['shell']),
  alltools: allTools(OPENAI),
  'alltools-qwen': allTools(QWEN),
};

/** Every configuration, in the reference's registry order (the retrieval library's list of names). */
export const RETRIEVAL_VARIANTS: readonly RetrievalVariant[] = RETRIEVAL_CONFIG_NAMES.map((name) => ({ name, ...VARIANTS[name] }));

/** The configuration of that name or alias; an unknown name raises the reference's `resolve_variant` error. */
export const resolveVariant = (name: string): RetrievalVariant => {
  const known = RetrievalConfigNameSchema.safeParse(name);
  if (!known.success) {
    throw new Error(`Unknown retrieval variant: ${pyRepr(name)}. Available: ${pyRepr([...RETRIEVAL_CONFIG_NAMES].sort())}`);
  }
  return { name: known.data, ...VARIANTS[known.data] };
};
