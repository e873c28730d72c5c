// The model clients of the Worker: every call goes to the configured endpoint (OPENAI_BASE_URL) with the
// configured key, so a caller can pick models but never where the key is sent. One client per endpoint and
// key, kept for the isolate's life.
import { createAiSdkClient } from '../../core/llm/ai-sdk-client.ts';
import type { LlmClient } from '../../core/llm/types.ts';
import { modelName } from '../../core/llm/model-name.ts';

const clients = new Map<string, LlmClient>();

export const providerClient = (env: Env): LlmClient => {
  const id = `${env.OPENAI_BASE_URL}\n${env.OPENAI_API_KEY ?? ''}`;
  let cached = clients.get(id);
  if (!cached) {
    const client = createAiSdkClient({
      baseURL: env.OPENAI_BASE_URL,
      ...(env.OPENAI_API_KEY === undefined ? {} : { apiKey: env.OPENAI_API_KEY }),
    });
    cached = { generate: (request) => client.generate({ ...request, model: modelName(request.model) }) };
    clients.set(id, cached);
  }
  return cached;
};
