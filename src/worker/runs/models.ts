// The model clients of the Worker, each provider's as the registry (core/llm/providers.ts) names it. A tenant
// with its own OpenAI-compatible credentials (bring-your-own provider) has its calls sent to its endpoint with its
// key; everyone else's go to the operator's configured endpoint with the operator's key; `openai/responses/…`
// models go to that endpoint's Responses API. The other providers' models go to them with the tenant's key for
// them, else the operator's. A caller picks models but never where the operator's key is sent.
// Embeddings (dense retrieval) go to the same OpenAI-compatible endpoint with the same key, whichever embedding
// model a configuration names; only the operator's Qwen embeddings may go to OpenRouter. Clients are kept per
// endpoint and key for the isolate's life; a tenant's credentials are re-read after TENANT_CACHE_MS, so a change
// or deletion takes effect within that.
// A role's `api_base` (litellm's per-call endpoint) follows the bring-your-own endpoint rules, checked when the
// run is launched and again at each call. The key sent with it is the tenant's own OpenAI-compatible key; the
// operator's key goes to an api_base only on the operator's own runs, never to an endpoint a tenant chose.
import type { LlmClient } from '../../core/llm/types.ts';
import { createOpenAIEndpointClient } from '../../core/llm/openai-endpoint.ts';
import { createNativeClient, modelArgsIssue, routedClient } from '../../core/llm/native-client.ts';
import type { NativeProvider } from '../../core/llm/native-client.ts';
import { findCredential } from '../db/credentials.ts';
import { decryptSecret, endpointIssue } from '../credentials.ts';
import { endpointOf } from './provider-gate.ts';
import { apiBaseModelIssue, apiBaseOf, withApiBase } from '../../core/llm/api-base.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { ApiIssue } from '../../api/index.ts';
import { OPERATOR_TENANT } from '../tenancy/tenants.ts';
import { createAiSdkEmbedder } from '../../core/llm/embedder.ts';
import { embeddingEndpoint } from '../../core/llm/embedding-endpoint.ts';
import { NATIVE_PROVIDERS, PROVIDERS, operatorApiRoot, operatorBaseUrl, operatorCredential, operatorKey } from '../../core/llm/providers.ts';
import type { Embedder, EmbedderSpec } from '../../core/knowledge/embedder.ts';

/** A model client and the endpoint its calls go to (the provider gate's name). */
export interface Provider {
  readonly client: LlmClient;
  readonly endpoint: string;
  /** Embeddings on the same OpenAI-compatible endpoint with the same key, for either embedding model. */
  readonly embedder: (spec: EmbedderSpec) => Embedder;
}

const TENANT_CACHE_MS = 30_000;

const clients = new Map<string, LlmClient>();
const embedders = new Map<string, Embedder>();

const embedderFor = (baseURL: string, apiKey: string | undefined) => (spec: EmbedderSpec): Embedder => {
  const id = `${baseURL}\n${apiKey ?? ''}\n${spec.provider}/${spec.model}`;
  let cached = embedders.get(id);
  if (!cached) embedders.set(id, (cached = createAiSdkEmbedder({ spec, baseURL, ...(apiKey === undefined ? {} : { apiKey }) })));
  return cached;
};
const tenantProviders = new Map<string, { readonly until: number; readonly provider: Promise<Provider> }>();

const clientFor = (baseURL: string, apiKey: string | undefined): LlmClient => {
  const id = `${baseURL}\n${apiKey ?? ''}`;
  let cached = clients.get(id);
  if (!cached) clients.set(id, (cached = createOpenAIEndpointClient({ baseURL, ...(apiKey === undefined ? {} : { apiKey }) })));
  return cached;
};

/** The operator's embeddings (embedding-endpoint.ts). */
const operatorEmbedder = (env: Env) => (spec: EmbedderSpec): Embedder => {
  const { baseURL, apiKey } = embeddingEndpoint(spec, env);
  return embedderFor(baseURL, apiKey)(spec);
};

/** The operator's provider: its OpenAI-compatible endpoint with its OpenAI key. */
export const providerClient = (env: Env): LlmClient => clientFor(operatorApiRoot(env, 'openai'), operatorKey(env, 'openai'));

/** Binds a sealed key to its tenant and provider, so a ciphertext moved to another row does not open. */
export const credentialContext = (tenant: string, provider: string): string => `${tenant}/${provider}`;

const nativeClients = new Map<string, LlmClient>();

/**
 * The client of a native provider (`anthropic/…`, `gemini/…` models): the tenant's own key for it, else the
 * operator's; null without either. The API root is the provider's, or the operator's for it.
 */
const nativeClient = async (env: Env, tenant: string, provider: NativeProvider): Promise<LlmClient | null> => {
  const credential = await findCredential(env.DB, tenant, provider);
  const operator = operatorCredential(env, provider);
  const apiKey = credential ? await decryptSecret(env, credential.keyCiphertext, credentialContext(tenant, provider)) : operator?.apiKey;
  if (!apiKey) return null;
  const baseURL = operatorBaseUrl(env, provider);
  const id = `${provider}\n${baseURL ?? ''}\n${apiKey}`;
  let client = nativeClients.get(id);
  if (!client) nativeClients.set(id, (client = createNativeClient({ provider, apiKey, ...(baseURL ? { baseURL } : {}) })));
  return client;
};

/** The tenant's OpenAI-compatible client with its native providers' beside it, routed by model name. */
const withNative = async (env: Env, tenant: string, openai: LlmClient): Promise<LlmClient> => {
  const native = await Promise.all(NATIVE_PROVIDERS.map(async (provider) => [provider, await nativeClient(env, tenant, provider)] as const));
  return routedClient({ openai, ...Object.fromEntries(native) });
};

/**
 * Why a role's llm_args cannot be used: an `api_base` that is not a URL string, not allowed here, or not for an
 * OpenAI model; or an argument its model's provider does not take.
 */
export const apiBaseIssue = (env: Env, config: RunConfig): ApiIssue | null => {
  const roles = [
    ['llm_args_agent', config.llm_agent, config.llm_args_agent],
    ['llm_args_user', config.llm_user, config.llm_args_user],
    ['llm_args_judge', config.llm_judge, config.llm_args_judge],
  ] as const;
  for (const [field, model, args] of roles) {
    const llmArgs = args as Parameters<typeof apiBaseOf>[0];
    const issue = apiBaseModelIssue(model, llmArgs);
    if (issue) return { path: `${field}.api_base`, message: issue };
    const argsIssue = modelArgsIssue(model, llmArgs);
    if (argsIssue) return { path: `${field}.${argsIssue.key}`, message: argsIssue.message };
    const apiBase = apiBaseOf(llmArgs);
    const urlIssue = apiBase === null ? null : endpointIssue(apiBase, env);
    if (urlIssue) return { path: `${field}.api_base`, message: urlIssue };
  }
  return null;
};

/** The client of a role's api_base, with the key that may go there (see above), checked again at use. */
const apiBaseClient = (env: Env, tenant: string, ownKey: string | undefined) => (apiBase: string): LlmClient => {
  const issue = endpointIssue(apiBase, env);
  if (issue) throw new Error(`The api_base ${apiBase} is not allowed: ${issue}`);
  return clientFor(apiBase, ownKey ?? (tenant === OPERATOR_TENANT ? operatorKey(env, 'openai') : undefined));
};

const resolve = async (env: Env, tenant: string): Promise<Provider> => {
  const credential = await findCredential(env.DB, tenant, 'openai');
  if (!credential) {
    const client = withApiBase(providerClient(env), apiBaseClient(env, tenant, undefined));
    return {
      client: await withNative(env, tenant, client),
      endpoint: endpointOf(operatorApiRoot(env, 'openai')),
      embedder: operatorEmbedder(env),
    };
  }
  const baseURL = credential.baseUrl ?? PROVIDERS.openai.defaultBaseUrl;
  // Checked again at use: the operator may have withdrawn ALLOW_LOCAL_PROVIDERS since the credential was stored.
  const issue = endpointIssue(baseURL, env);
  if (issue) throw new Error(`The tenant's provider endpoint is not allowed: ${issue}`);
  const apiKey = await decryptSecret(env, credential.keyCiphertext, credentialContext(tenant, 'openai'));
  const client = withApiBase(clientFor(baseURL, apiKey), apiBaseClient(env, tenant, apiKey));
  return { client: await withNative(env, tenant, client), endpoint: endpointOf(baseURL), embedder: embedderFor(baseURL, apiKey) };
};

/** The provider the tenant's model calls go to. */
export const providerFor = (env: Env, tenant: string): Promise<Provider> => {
  const cached = tenantProviders.get(tenant);
  if (cached && cached.until > Date.now()) return cached.provider;
  const provider = resolve(env, tenant);
  tenantProviders.set(tenant, { until: Date.now() + TENANT_CACHE_MS, provider });
  provider.catch(() => tenantProviders.delete(tenant));
  return provider;
};
