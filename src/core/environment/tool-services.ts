// What a tool may ask of its host beyond the DB, for the tools whose work awaits (dense retrieval, the LLM
// reranker): an embeddings endpoint, a model and a clock. Passed in like every other I/O of the engine.
import type { LlmClient } from '../llm/types.ts';
import { meteredClient } from '../llm/meter.ts';
import type { UsageMeter } from '../llm/meter.ts';
import type { SpendLedger } from '../llm/budget.ts';
import type { EmbedCall, Embedder, EmbedderSpec } from '../knowledge/embedder.ts';
import type { EmbeddingStore } from '../knowledge/embedding-store.ts';

/** Also what each embeddings call of the tool call is reported and held to (its `meter` and `ledger`). */
export interface ToolServices extends EmbedCall {
  /** The embedder of a dense retriever's model; the same object for the same model (indexes are kept per embedder). */
  readonly embedder: (spec: EmbedderSpec) => Embedder;
  /** Where document embeddings are kept between index builds. */
  readonly embeddingStore: EmbeddingStore;
  /** The client of the model calls a tool makes (the reranker's), on the run's provider path and under its caps. */
  readonly model: LlmClient;
  /** Milliseconds from any origin, for the timings a tool reports. */
  readonly nowMs: () => number;
  /**
   * Where the calls of the tool call at hand are reported: the model's through `model`, the embeddings' by
   * passing it to the embedder (which is shared, so it cannot be wrapped without losing its index).
   */
  readonly meter?: UsageMeter;
  /**
   * The payer's spend ledger, for the embeddings calls (passed with each, like `meter`); the model's calls are
   * held to it by `model` itself.
   */
  readonly ledger?: SpendLedger;
}

/** The services of one tool call, its calls reported to `meter`. */
export const meteredServices = (services: ToolServices, meter: UsageMeter | undefined): ToolServices =>
  meter === undefined ? services : { ...services, model: meteredClient(services.model, meter), meter };
