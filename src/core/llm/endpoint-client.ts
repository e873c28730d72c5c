// The client of a remote agent endpoint: chat-completions calls POSTed to exactly the endpoint's URL (an agent
// server need not live under `/chat/completions`) with the caller's headers, through the production client.
import { createAiSdkClient } from './ai-sdk-client.ts';
import { modelName } from './model-name.ts';
import type { LlmClient } from './types.ts';

export const endpointClient = (url: string, headers: Readonly<Record<string, string>> = {}): LlmClient => {
  const client = createAiSdkClient({
    baseURL: url,
    fetch: (_input, init) => {
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return fetch(url, { ...init, headers: merged });
    },
  });
  return { generate: (request) => client.generate({ ...request, model: modelName(request.model) }) };
};
