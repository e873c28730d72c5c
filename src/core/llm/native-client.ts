// The routing of litellm-style model names to the provider adapters: `anthropic/…` (and bare `claude-…`) to
// Anthropic, `gemini/…` to Google, `openai/responses/…` to OpenAI's Responses API; every other name goes to the
// OpenAI-compatible endpoint with the reference's byte-exact payload. The reference reaches these providers
// through litellm, whose wire format is theirs too: what carries over is the conversation, the tools, the
// sampling arguments and the reasoning arguments litellm maps for them (reasoning-args.ts).
import { createAnthropicClient } from './anthropic-client.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import { createGoogleClient } from './google-client.ts';
import { providerArgsIssue } from './reasoning-args.ts';
import type { ArgsIssue } from './reasoning-args.ts';
import { InfraError } from './types.ts';
import type { LlmClient, LlmRequest } from './types.ts';

export type NativeProvider = 'anthropic' | 'google';
export type ModelProvider = NativeProvider | 'openai' | 'openai.responses';

const RESPONSES_PREFIX = 'openai/responses/';

/**
 * The provider a model name addresses, and the model's name at that provider. OpenAI's Chat Completions
 * (`openai/…`, bare names, api.openai.com) goes through the OpenAI-compatible client, not @ai-sdk/openai: that
 * provider builds its own body (its key order, no `tool_calls: null`, compact tool-call arguments, no `name`
 * beside `function`) and has no hook to send another, so the reference's byte-exact payload would be lost. The
 * Responses API has no such payload to keep, and goes through @ai-sdk/openai.
 */
export const modelRoute = (name: string): { provider: ModelProvider; model: string } => {
  if (name.startsWith(RESPONSES_PREFIX)) return { provider: 'openai.responses', model: name.slice(RESPONSES_PREFIX.length) };
  if (name.startsWith('anthropic/')) return { provider: 'anthropic', model: name.slice('anthropic/'.length) };
  if (name.startsWith('claude-')) return { provider: 'anthropic', model: name };
  if (name.startsWith('gemini/')) return { provider: 'google', model: name.slice('gemini/'.length) };
  return { provider: 'openai', model: name };
};

/** Whether a model goes to an OpenAI endpoint (Chat Completions or Responses): the key and api_base rules are theirs. */
export const isOpenAIRoute = (provider: ModelProvider): boolean => provider === 'openai' || provider === 'openai.responses';

/** Why a role's llm_args cannot go to its model's provider (an argument it does not take), or null. */
export const modelArgsIssue = (model: string, llmArgs: LlmRequest['llmArgs']): ArgsIssue | null => {
  const { provider } = modelRoute(model);
  return provider === 'openai' ? null : providerArgsIssue(provider, llmArgs);
};

export interface NativeClientConfig extends ProviderClientConfig {
  readonly provider: NativeProvider;
}

const providerModel = (name: string): string => modelRoute(name).model;

export const createNativeClient = (config: NativeClientConfig): LlmClient =>
  config.provider === 'anthropic' ? createAnthropicClient(config, providerModel) : createGoogleClient(config, providerModel);

/** Clients per provider; a model whose provider has none fails as a refusal that no retry fixes. */
export const routedClient = (clients: { readonly openai: LlmClient } & Partial<Record<NativeProvider, LlmClient | null>>): LlmClient => ({
  generate: (request) => {
    const { provider } = modelRoute(request.model);
    // The Responses models share the OpenAI endpoint's client (its key, its api_base), which routes them on.
    const client = isOpenAIRoute(provider) ? clients.openai : clients[provider as NativeProvider];
    if (!client) {
      return Promise.reject(new InfraError(`LLM call to ${request.model} failed: no ${provider} credentials are configured`, { retryable: false }));
    }
    return client.generate(request);
  },
});
