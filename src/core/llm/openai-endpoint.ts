// The client of one OpenAI endpoint (API root and key): `openai/responses/…` models on its Responses API,
// every other name on its Chat Completions with the reference's byte-exact payload.
import { createAiSdkClient } from './ai-sdk-client.ts';
import type { AiSdkClientConfig } from './ai-sdk-client.ts';
import { modelName } from './model-name.ts';
import { modelRoute } from './providers.ts';
import { createResponsesClient } from './responses-client.ts';
import type { LlmClient } from './types.ts';

export const createOpenAIEndpointClient = (config: AiSdkClientConfig): LlmClient => {
  const chat = createAiSdkClient(config);
  const responses = createResponsesClient(config, (name) => modelRoute(name).model);
  return {
    generate: (request) =>
      modelRoute(request.model).provider === 'openai.responses' ? responses.generate(request) : chat.generate({ ...request, model: modelName(request.model) }),
  };
};
