// The embedding port of the dense retrievers: the engine asks for vectors, a caller-provided embedder computes
// them (through the Vercel AI SDK in production, a local fake in tests).
import type { UsageMeter } from '../llm/meter.ts';
import type { SpendLedger } from '../llm/budget.ts';

/** Which service and model embed the texts; part of every cache key. */
export interface EmbedderSpec {
  readonly provider: 'openai' | 'openrouter';
  /** The reference's model name (`text-embedding-3-large`, `qwen3-embedding-8b`). */
  readonly model: string;
}

/**
 * What one embeddings call is reported to and held to, given with each call because embedders are shared (they
 * keep dense indexes) while payers are not: the caller's meter, and the payer's spend ledger, which reserves the
 * call's bound before it is made and settles its cost after.
 */
export interface EmbedCall {
  readonly meter?: UsageMeter | undefined;
  readonly ledger?: SpendLedger | undefined;
}

export interface Embedder {
  readonly spec: EmbedderSpec;
  /**
   * Where the vectors come from when that is not the provider's own API (a host or proxy with the same model
   * name); null otherwise. Part of every cache key, so vectors from one endpoint never stand in for another's.
   */
  readonly endpoint: string | null;
  /**
   * One vector per text, in order; the call is reported to `call.meter` and held to `call.ledger`. Failures (a
   * refused reservation included) are InfraErrors (retried by the embedder first, a refusal is not).
   */
  embed(texts: readonly string[], call?: EmbedCall): Promise<number[][]>;
}

/** The dense backends of the reference's configurations. */
export const OPENAI_EMBEDDINGS: EmbedderSpec = { provider: 'openai', model: 'text-embedding-3-large' };
export const QWEN_EMBEDDINGS: EmbedderSpec = { provider: 'openrouter', model: 'qwen3-embedding-8b' };

/** OpenRouter's names for the reference's short model names. */
const OPENROUTER_MODELS: Readonly<Record<string, string>> = {
  'qwen3-embedding-4b': 'qwen/qwen3-embedding-4b',
  'qwen3-embedding-8b': 'qwen/qwen3-embedding-8b',
  'gemini-embedding-001': 'google/gemini-embedding-001',
};

/** The model name sent to the provider. */
export const apiModelName = (spec: EmbedderSpec): string =>
  spec.provider === 'openrouter' ? (OPENROUTER_MODELS[spec.model] ?? spec.model) : spec.model;

/** Qwen's retrieval instruction (Qwen3-Embedding model card), applied to queries only. */
export const QWEN_QUERY_INSTRUCTION = 'Given a web search query, retrieve relevant passages that answer the query';

/** The instruction a model needs in front of queries, if any: Qwen models through OpenRouter need one. */
export const queryInstruction = (spec: EmbedderSpec): string | null =>
  spec.provider === 'openrouter' && apiModelName(spec).toLowerCase().includes('qwen') ? QWEN_QUERY_INSTRUCTION : null;

/** The text embedded for a query: `Instruct: …\nQuery:…` for instructed models, the query itself otherwise. */
export const queryText = (spec: EmbedderSpec, query: string): string => {
  const instruction = queryInstruction(spec);
  return instruction ? `Instruct: ${instruction}\nQuery:${query}` : query;
};
