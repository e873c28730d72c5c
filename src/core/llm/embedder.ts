// The production Embedder: `embedMany` of the Vercel AI SDK against an OpenAI-compatible embeddings endpoint
// (OpenAI for text-embedding-3-large, OpenRouter for Qwen3-Embedding), retried with backoff; a call that keeps
// failing is an InfraError, never something the agent sees. Each call's tokens and cost go to the caller's meter,
// and a call given a spend ledger is reserved at its bound before it is made and settled at its cost after.
// The SDK loads on the first embedding (on-first-call.ts says why).
import type { Embedder, EmbedderSpec } from '../knowledge/embedder.ts';
import { apiModelName } from '../knowledge/embedder.ts';
import { DEFAULT_TIMEOUT_MS, attemptFailure, redactSecrets } from './retrying-client.ts';
import { defaultSleep, tryN } from './retry.ts';
import { InfraError } from './types.ts';
import { withoutRedirects } from './no-redirects.ts';
import { callCost } from './pricing.ts';
import { embeddingUsage } from './usage.ts';
import { PROVIDERS } from './providers.ts';
import { embeddingUpperBound, withinBudget } from './budget.ts';
import { onFirstCall } from './on-first-call.ts';
import type { UsageMeter } from './meter.ts';

/** The reference's OpenRouter embedder makes 3 attempts. */
export const DEFAULT_EMBEDDING_ATTEMPTS = 3;

export interface AiSdkEmbedderConfig {
  readonly spec: EmbedderSpec;
  /** Defaults to the provider's public endpoint. */
  readonly baseURL?: string;
  /** Sent as `Authorization: Bearer …`; never written into errors. */
  readonly apiKey?: string;
  readonly fetch?: typeof fetch;
  readonly attempts?: number;
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly retryBaseMs?: number;
}

export const createAiSdkEmbedder = (config: AiSdkEmbedderConfig): Embedder => {
  const { spec, apiKey } = config;
  const baseURL = config.baseURL ?? PROVIDERS[spec.provider].defaultBaseUrl;
  const sdk = onFirstCall(async () => {
    const [{ createOpenAICompatible }, { embedMany }] = await Promise.all([import('@ai-sdk/openai-compatible'), import('./ai-sdk-calls.ts')]);
    const provider = createOpenAICompatible({
      name: spec.provider,
      baseURL,
      ...(apiKey === undefined ? {} : { apiKey }),
      fetch: withoutRedirects(config.fetch),
    });
    return { embedMany, model: provider.embeddingModel(apiModelName(spec)) };
  });
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const attempts = config.attempts ?? DEFAULT_EMBEDDING_ATTEMPTS;
  // Priced as `provider/model`, the catalogue's provider and name for it.
  const pricedAs = `${spec.provider}/${apiModelName(spec)}`;

  /** The texts' vectors from the endpoint, retried with backoff; the call that returns is reported to `meter`. */
  const embedWithRetries = async (texts: readonly string[], meter: UsageMeter | undefined): Promise<number[][]> => {
    const { embedMany, model } = await sdk();
    let made = 0;
    try {
      return await tryN(
        attempts,
        async (n) => {
          made = n;
          const timeout = AbortSignal.timeout(timeoutMs);
          try {
            const { embeddings, usage } = await embedMany({ model, values: [...texts], maxRetries: 0, abortSignal: timeout });
            const tokens = embeddingUsage(usage.tokens);
            meter?.({ model: pricedAs, usage: tokens, cost: callCost(pricedAs, tokens) });
            return embeddings;
          } catch (err) {
            throw attemptFailure(err, timeout, timeoutMs, apiKey);
          }
        },
        { sleep: config.sleep ?? defaultSleep, ...(config.retryBaseMs === undefined ? {} : { baseMs: config.retryBaseMs }) },
      );
    } catch (err) {
      const last = err instanceof InfraError ? err : new InfraError(redactSecrets(String(err), apiKey), { retryable: false });
      throw new InfraError(
        `embedding call to ${apiModelName(spec)} failed after ${made} attempt${made === 1 ? '' : 's'}: ${last.message}`,
        { retryable: last.retryable, cause: last.cause },
      );
    }
  };

  return {
    spec,
    endpoint: baseURL === PROVIDERS[spec.provider].defaultBaseUrl ? null : new URL(baseURL).host,
    async embed(texts, call = {}) {
      if (texts.length === 0) throw new Error('No text to embed.');
      const { ledger, meter } = call;
      if (ledger === undefined) return embedWithRetries(texts, meter);
      return withinBudget(ledger, { model: pricedAs, upperBoundUsd: embeddingUpperBound(pricedAs, texts) }, (spent) =>
        embedWithRetries(texts, (made) => {
          spent(made.cost ?? 0);
          meter?.(made);
        }),
      );
    },
  };
};
