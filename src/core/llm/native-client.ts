// Models of providers with their own APIs, Anthropic and Google (Gemini), through their AI SDK providers, and
// the routing of litellm-style model names to them: `anthropic/…` (and bare `claude-…`) and `gemini/…`; every
// other name goes to the OpenAI-compatible endpoint with the reference's byte-exact payload. The reference
// reaches these providers through litellm, whose wire format is theirs too: what carries over is the
// conversation, the tools and the sampling arguments (temperature, max_tokens, top_p, seed).
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText } from 'ai';
import type { LanguageModel } from 'ai';
import { isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { attemptFailure, retryingClient, sdkCall } from './ai-sdk-client.ts';
import type { RetrySettings } from './ai-sdk-client.ts';
import { InfraError } from './types.ts';
import { sdkUsage } from './usage.ts';
import type { LlmClient, LlmRequest } from './types.ts';

export type NativeProvider = 'anthropic' | 'google';
export type ModelProvider = NativeProvider | 'openai';

/**
 * The provider a model name addresses, and the model's name at that provider. OpenAI itself (`openai/…`, bare
 * names, api.openai.com) goes through the OpenAI-compatible client, not @ai-sdk/openai: that provider builds its
 * own body (its key order, no `tool_calls: null`, compact tool-call arguments, no `name` beside `function`) and has
 * no hook to send another, so the reference's byte-exact payload would be lost.
 */
export const modelRoute = (name: string): { provider: ModelProvider; model: string } => {
  if (name.startsWith('anthropic/')) return { provider: 'anthropic', model: name.slice('anthropic/'.length) };
  if (name.startsWith('claude-')) return { provider: 'anthropic', model: name };
  if (name.startsWith('gemini/')) return { provider: 'google', model: name.slice('gemini/'.length) };
  return { provider: 'openai', model: name };
};

export interface NativeClientConfig extends RetrySettings {
  readonly provider: NativeProvider;
  /** The provider's API root; its public one by default. */
  readonly baseURL?: string;
  readonly fetch?: typeof fetch;
}

const numberArg = (value: PyValue | undefined): number | undefined => {
  const n = isPyFloat(value) ? value.value : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** The sampling arguments every provider takes, from the run's llm_args. */
const samplingArgs = (llmArgs: LlmRequest['llmArgs']) => {
  const args = {
    temperature: numberArg(llmArgs['temperature']),
    maxOutputTokens: numberArg(llmArgs['max_tokens'] ?? llmArgs['max_completion_tokens']),
    topP: numberArg(llmArgs['top_p']),
    seed: numberArg(llmArgs['seed']),
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
};

export const createNativeClient = (config: NativeClientConfig): LlmClient => {
  const settings = {
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
    ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
    ...(config.fetch === undefined ? {} : { fetch: config.fetch }),
  };
  const provider = config.provider === 'anthropic' ? createAnthropic(settings) : createGoogleGenerativeAI(settings);
  const models = new Map<string, LanguageModel>();
  const model = (name: string): LanguageModel => {
    let cached = models.get(name);
    if (cached === undefined) models.set(name, (cached = provider(modelRoute(name).model)));
    return cached;
  };
  return retryingClient(config, async (request, timeoutMs) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const result = await generateText({
        model: model(request.model),
        ...sdkCall(request),
        ...samplingArgs(request.llmArgs),
        maxRetries: 0,
        abortSignal: timeout,
        include: { responseBody: true },
      });
      return {
        content: result.text === '' ? null : result.text,
        toolCalls: result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, arguments: JSON.stringify(c.input) })),
        usage: sdkUsage(result.usage),
        model: result.response.modelId ?? null,
        rawData: (result.response.body ?? {}) as Record<string, PyValue>,
      };
    } catch (err) {
      throw attemptFailure(err, timeout, timeoutMs, config.apiKey);
    }
  });
};

/** Clients per provider; a model whose provider has none fails as a refusal that no retry fixes. */
export const routedClient = (clients: { readonly openai: LlmClient } & Partial<Record<NativeProvider, LlmClient | null>>): LlmClient => ({
  generate: (request) => {
    const { provider } = modelRoute(request.model);
    const client = provider === 'openai' ? clients.openai : clients[provider];
    if (!client) {
      return Promise.reject(new InfraError(`LLM call to ${request.model} failed: no ${provider} credentials are configured`, { retryable: false }));
    }
    return client.generate(request);
  },
});
