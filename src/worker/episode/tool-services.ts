// The tool services of an episode on the Worker: embeddings and the reranker's model calls on the run's provider,
// each call holding a lease of the provider's gate like every turn (the caps are shared) and spending the payer's
// budget (the reranker's through the budgeted client, the embeddings' through the ledger passed with each call,
// as the embedders are shared), and document vectors in D1, so an isolate builds its dense index without
// embedding the knowledge base again.
import type { ToolServices } from '../../core/environment/tool-services.ts';
import type { Embedder } from '../../core/knowledge/embedder.ts';
import { d1EmbeddingStore } from '../db/embeddings.ts';
import type { Provider } from '../runs/models.ts';
import { spendLedger } from '../tenancy/spend-ledger.ts';
import type { Payer } from '../tenancy/spend-ledger.ts';
import { withProviderLease } from '../turns/producer.ts';

/** One gated embedder per provider embedder, so an isolate keeps one dense index per endpoint and model. */
const gatedEmbedders = new WeakMap<Embedder, Embedder>();

/** `provider.client` is already held to the payer's budget; its embedders are not (they are shared per isolate). */
export const workerToolServices = (env: Env, provider: Provider, payer: Payer): ToolServices => {
  const leased = <T>(work: () => Promise<T>): Promise<T> => withProviderLease(env, provider.endpoint, `tool#${crypto.randomUUID()}`, work);
  return {
    embedder: (spec) => {
      const inner = provider.embedder(spec);
      let gated = gatedEmbedders.get(inner);
      if (!gated) {
        gated = { spec: inner.spec, endpoint: inner.endpoint, embed: (texts, call) => leased(() => inner.embed(texts, call)) };
        gatedEmbedders.set(inner, gated);
      }
      return gated;
    },
    embeddingStore: d1EmbeddingStore(env.DB),
    model: { generate: (request) => leased(() => provider.client.generate(request)) },
    nowMs: () => performance.now(),
    ledger: spendLedger(env, payer),
  };
};
