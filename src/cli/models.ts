// Model configuration from CLI flags and environment: any OpenAI-compatible endpoint.
import { parsePyJson, pyFloat } from '../core/py/index.ts';
import type { LlmClient } from '../core/llm/types.ts';
import type { PyValue } from '../core/py/index.ts';
import type { ModelConfig } from '../core/agents/participant.ts';
import { createAiSdkClient } from '../core/llm/ai-sdk-client.ts';
import { modelName } from '../core/llm/model-name.ts';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** `--*-llm-args` as a JSON object, keeping int/float kinds (e.g. `{"temperature": 0.0}`). */
export const parseLlmArgs = (text: string | undefined, fallback: Record<string, PyValue>): Record<string, PyValue> => {
  if (text === undefined) return fallback;
  const value = parsePyJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`LLM args must be a JSON object, got: ${text}`);
  }
  return value as Record<string, PyValue>;
};

/** The provider endpoint: the flag, else OPENAI_BASE_URL, else OpenAI; the key comes from OPENAI_API_KEY. */
export const clientFor = (baseUrl: string | undefined): LlmClient => {
  const client = createAiSdkClient({
    baseURL: baseUrl ?? process.env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
    apiKey: process.env.OPENAI_API_KEY,
  });
  return { generate: (request) => client.generate({ ...request, model: modelName(request.model) }) };
};


export const modelFromFlags = (name: string, argsText: string | undefined, baseUrl: string | undefined): ModelConfig => ({
  client: clientFor(baseUrl),
  model: name,
  llmArgs: parseLlmArgs(argsText, { temperature: pyFloat(0) }),
});
