// Per-role endpoints: `api_base` in a role's llm_args (`--agent-llm-args '{"api_base": …}'`), which litellm honours
// by sending that call to the given API root instead of the default one. It is one of litellm's own arguments,
// never part of the request body, so the payload the endpoint receives is the reference's. tau2-edge honours it
// for OpenAI-compatible models and OpenAI's Responses models (litellm's `base_url` alias too); the host decides which key goes with it.
import type { LlmRequest } from './types.ts';
import type { LlmClient } from './types.ts';
import { isOpenAIRoute, modelRoute } from './providers.ts';

const API_BASE_ARGS = ['api_base', 'base_url'] as const;

/** The API root a role's llm_args ask for, or null; a value that is not a string is refused. */
export const apiBaseOf = (llmArgs: LlmRequest['llmArgs']): string | null => {
  for (const key of API_BASE_ARGS) {
    const value = llmArgs[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new Error(`${key} must be a URL string`);
    return value;
  }
  return null;
};

/** Why a role's llm_args cannot name an endpoint for its model, or null. */
export const apiBaseModelIssue = (model: string, llmArgs: LlmRequest['llmArgs']): string | null => {
  let apiBase: string | null;
  try {
    apiBase = apiBaseOf(llmArgs);
  } catch (error) {
    return (error as Error).message;
  }
  if (apiBase === null || isOpenAIRoute(modelRoute(model).provider)) return null;
  return `api_base is honoured for OpenAI-compatible models; ${model} goes to its own provider`;
};

/** Sends each call whose llm_args name an API root to the client for that root, every other call to `fallback`. */
export const withApiBase = (fallback: LlmClient, clientAt: (apiBase: string) => Promise<LlmClient> | LlmClient): LlmClient => ({
  async generate(request) {
    const apiBase = apiBaseOf(request.llmArgs);
    if (apiBase === null || !isOpenAIRoute(modelRoute(request.model).provider)) return fallback.generate(request);
    return (await clientAt(apiBase)).generate(request);
  },
});
