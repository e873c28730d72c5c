// The retrieval configurations of the banking_knowledge domain as the domain sees them: for each name, its prompt
// template, how the policy is built, and the retrieval tools it gives the agent (reference: RETRIEVAL_VARIANTS,
// RETRIEVAL_VARIANT_ALIASES and the prompt builders in src/tau2/domains/banking_knowledge/retrieval.py). How
// each retrieval tool is set up (pipelines, top_k, reranking, the shell) belongs to the retrieval library; the
// tools plug in through retrieval-tools.ts.
import { pyRepr } from '../../src/core/py/index.ts';

/** How the policy is built: components only, the whole knowledge base inlined, or the task's documents. */
export type PromptKind = 'standard' | 'full_kb' | 'golden';

/** The dense retriever an all-tools prompt names. */
export interface DenseEmbedder {
  readonly provider: string;
  readonly model: string;
}

export interface RetrievalVariant {
  readonly name: string;
  /** The template's file stem under prompts/. */
  readonly template: string;
  readonly prompt: PromptKind;
  /** The retrieval tools it gives the agent, by the reference's tool names, in the reference's order. */
  readonly tools: readonly string[];
  /** Set for the all-tools configurations, whose prompt names their dense retriever. */
  readonly dense: DenseEmbedder | null;
}

export const DEFAULT_RETRIEVAL_CONFIG = 'alltools';

const OPENAI: DenseEmbedder = { provider: 'OpenAI API', model: 'text-embedding-3-large' };
const QWEN: DenseEmbedder = { provider: 'OpenRouter', model: 'qwen3-embedding-8b' };
const KB_GREP = ['KB_search', 'grep'];
const KB = ['KB_search'];

const variant = (name: string, template: string, tools: readonly string[] = [], prompt: PromptKind = 'standard'): RetrievalVariant => ({
  name,
  template,
  prompt,
  tools,
  dense: null,
});

const allTools = (name: string, dense: DenseEmbedder): RetrievalVariant => ({
  ...variant(name, 'all_tools', ['KB_search_bm25', 'KB_search_dense', 'shell']),
  dense,
});

/** Every configuration, in the reference's registry order. */
export const RETRIEVAL_VARIANTS: readonly RetrievalVariant[] = [
  variant('no_knowledge', 'no_knowledge'),
  variant('full_kb', 'full_kb', [], 'full_kb'),
  variant('golden_retrieval', 'required_docs', [], 'golden'),
  variant('qwen_embeddings_grep', 'classic_rag_qwen', KB_GREP),
  variant('openai_embeddings_grep', 'classic_rag_openai', KB_GREP),
  variant('qwen_embeddings_reranker_grep', 'classic_rag_qwen', KB_GREP),
  variant('openai_embeddings_reranker_grep', 'classic_rag_openai', KB_GREP),
  variant('bm25_grep', 'classic_rag_bm25', KB_GREP),
  variant('bm25_reranker_grep', 'classic_rag_bm25', KB_GREP),
  variant('qwen_embeddings', 'classic_rag_qwen_no_grep', KB),
  variant('openai_embeddings', 'classic_rag_openai_no_grep', KB),
  variant('qwen_embeddings_reranker', 'classic_rag_qwen_no_grep', KB),
  variant('openai_embeddings_reranker', 'classic_rag_openai_no_grep', KB),
  variant('bm25', 'classic_rag_bm25_no_grep', KB),
  variant('bm25_reranker', 'classic_rag_bm25_no_grep', KB),
  variant('grep_only', 'grep_only', ['grep']),
  variant('terminal_use', 'agentic_search', ['shell']),
  variant('terminal_use_write', 'agentic_search_write', ['shell']),
  allTools('alltools', OPENAI),
  allTools('alltools-qwen', QWEN),
];

/** Other spellings the reference accepts. */
const ALIASES: Readonly<Record<string, string>> = { AllTools: 'alltools' };

export const RETRIEVAL_CONFIG_NAMES: readonly string[] = RETRIEVAL_VARIANTS.map((v) => v.name);

const byName = new Map(RETRIEVAL_VARIANTS.map((v) => [v.name, v]));

/** The configuration of that name or alias; an unknown name raises the reference's `resolve_variant` error. */
export const resolveVariant = (name: string): RetrievalVariant => {
  const found = byName.get(Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name);
  if (!found) {
    throw new Error(`Unknown retrieval variant: ${pyRepr(name)}. Available: ${pyRepr([...RETRIEVAL_CONFIG_NAMES].sort())}`);
  }
  return found;
};
