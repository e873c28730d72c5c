// The clients of the providers in the registry (providers.ts), routed by litellm-style model name: each
// provider's factory here, and one client that sends every model to its provider's. The OpenAI endpoint takes
// every name no other provider claims, with the reference's byte-exact payload. The reference reaches these
// providers through litellm, whose wire format is theirs too: what carries over is the conversation, the tools,
// the sampling arguments and the reasoning arguments litellm maps for them (reasoning-args.ts).
import { createAnthropicClient } from './anthropic-client.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import { createGoogleClient } from './google-client.ts';
import { providerArgsIssue } from './reasoning-args.ts';
import type { ArgsIssue } from './reasoning-args.ts';
import { DEFAULT_ROUTE, adapterOwner, modelRoute } from './providers.ts';
import type { NativeProvider, ProviderId } from './providers.ts';
import { InfraError } from './types.ts';
import type { LlmClient, LlmRequest } from './types.ts';

export type { NativeProvider } from './providers.ts';

/** Why a role's llm_args cannot go to its model's provider (an argument it does not take), or null. */
export const modelArgsIssue = (model: string, llmArgs: LlmRequest['llmArgs']): ArgsIssue | null => {
  const { provider } = modelRoute(model);
  return provider === DEFAULT_ROUTE.adapter ? null : providerArgsIssue(provider, llmArgs);
};

export interface NativeClientConfig extends ProviderClientConfig {
  readonly provider: NativeProvider;
}

const providerModel = (name: string): string => modelRoute(name).model;

/** Each native provider's adapter factory (a registry entry's adapter without one fails the typecheck). */
const FACTORIES: Record<NativeProvider, (config: ProviderClientConfig, modelId: (name: string) => string) => LlmClient> = {
  anthropic: createAnthropicClient,
  google: createGoogleClient,
};

export const createNativeClient = (config: NativeClientConfig): LlmClient => FACTORIES[config.provider](config, providerModel);

/** Clients per provider; a model whose provider has none fails as a refusal that no retry fixes. */
export const routedClient = (clients: { readonly openai: LlmClient } & Partial<Record<NativeProvider, LlmClient | null>>): LlmClient => ({
  generate: (request) => {
    const { provider } = modelRoute(request.model);
    // The Responses models share the OpenAI endpoint's client (its key, its api_base), which routes them on.
    const client = (clients as Partial<Record<ProviderId, LlmClient | null>>)[adapterOwner(provider)];
    if (!client) {
      return Promise.reject(new InfraError(`LLM call to ${request.model} failed: no ${provider} credentials are configured`, { retryable: false }));
    }
    return client.generate(request);
  },
});
