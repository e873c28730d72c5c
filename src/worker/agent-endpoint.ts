// Remote agent endpoints (config.agent_endpoint): the agent's turns of a run are POSTed to the caller's URL in
// the chat-completions format instead of to a model provider. The URL follows the rules of bring-your-own
// provider URLs; the headers are sealed under CREDENTIALS_KEY for the tenant and kept apart from the
// configuration, which keeps only the URL.
import type { ApiIssue } from '../api/index.ts';
import type { RunConfig } from '../core/schemas/run-config.ts';
import { endpointClient } from '../core/llm/endpoint-client.ts';
import type { LlmClient } from '../core/llm/types.ts';
import { credentialsConfigured, decryptSecret, encryptSecret, endpointIssue } from './credentials.ts';
import { findRun } from './db/runs.ts';

/** The configuration as kept and shown, and its sealed headers (null without any). */
export interface SealedEndpointConfig {
  readonly config: RunConfig;
  readonly agentHeadersCiphertext: string | null;
}

const headersContext = (tenant: string): string => `${tenant}/agent_endpoint`;

/** Why the configuration's agent endpoint cannot be used, or null (also when it has none). */
export const agentEndpointIssue = (env: Env, config: RunConfig, prefix = ''): ApiIssue | null => {
  const endpoint = config.agent_endpoint;
  if (endpoint === null) return null;
  const issue = endpointIssue(endpoint.url, env);
  if (issue) return { path: `${prefix}agent_endpoint.url`, message: issue };
  if (Object.keys(endpoint.headers ?? {}).length > 0 && !credentialsConfigured(env)) {
    return { path: `${prefix}agent_endpoint.headers`, message: 'This service keeps no secrets (the operator has set no CREDENTIALS_KEY): send no headers' };
  }
  return null;
};

/** Splits the endpoint's headers off the configuration, sealed for the tenant. */
export const sealAgentEndpoint = async (env: Env, tenant: string, config: RunConfig): Promise<SealedEndpointConfig> => {
  const endpoint = config.agent_endpoint;
  if (endpoint === null) return { config, agentHeadersCiphertext: null };
  const headers = endpoint.headers ?? {};
  return {
    config: { ...config, agent_endpoint: { url: endpoint.url } },
    agentHeadersCiphertext: Object.keys(headers).length === 0 ? null : await encryptSecret(env, JSON.stringify(headers), headersContext(tenant)),
  };
};

const CACHE_MS = 30_000;
const clients = new Map<string, { readonly until: number; readonly client: Promise<LlmClient> }>();

/** The run's agent endpoint headers, unsealed, once `url` is checked again against the endpoint rules. */
export const agentEndpointHeaders = async (env: Env, runId: string, url: string): Promise<Record<string, string>> => {
  // Checked again at use: the operator may have withdrawn ALLOW_LOCAL_PROVIDERS since the run was launched.
  const issue = endpointIssue(url, env);
  if (issue) throw new Error(`The run's agent endpoint is not allowed: ${issue}`);
  const run = await findRun(env.DB, runId);
  if (!run) throw new Error(`Run ${runId} is not recorded`);
  const sealed = run.agentHeadersCiphertext;
  return sealed === null ? {} : (JSON.parse(await decryptSecret(env, sealed, headersContext(run.tenantId))) as Record<string, string>);
};

const resolve = async (env: Env, runId: string, url: string): Promise<LlmClient> => endpointClient(url, await agentEndpointHeaders(env, runId, url));

/** The client of a run's agent endpoint, kept per run for a while (a run's turns reuse it). */
export const agentEndpointClient = (env: Env, runId: string, url: string): Promise<LlmClient> => {
  const now = Date.now();
  const cached = clients.get(runId);
  if (cached && cached.until > now) return cached.client;
  for (const [id, entry] of clients) if (entry.until <= now) clients.delete(id);
  const client = resolve(env, runId, url);
  clients.set(runId, { until: now + CACHE_MS, client });
  client.catch(() => clients.delete(runId));
  return client;
};
