// The OpenAI Responses adapter (@ai-sdk/openai), for models named `openai/responses/MODEL`: nothing is stored at
// OpenAI (`store: false`), so each turn's reasoning items come back encrypted (`reasoning.encrypted_content`)
// and are sent again, right before their function calls, on the next request of the same model. Bare and
// `openai/` names stay on Chat Completions with the reference's byte-exact payload (ai-sdk-client.ts).
import { omittedArgs, responsesEffort } from './reasoning-args.ts';
import { onFirstCall } from './on-first-call.ts';
import { adapterClient, providerSettings } from './sdk-adapter.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import type { LlmClient } from './types.ts';

export const RESPONSES_ADAPTER = 'openai.responses' as const;

export const createResponsesClient = (config: ProviderClientConfig, modelId: (name: string) => string): LlmClient => {
  const provider = onFirstCall(async () => (await import('@ai-sdk/openai')).createOpenAI(providerSettings(config)));
  return adapterClient(config, RESPONSES_ADAPTER, async (request) => {
    const effort = responsesEffort(request.llmArgs);
    return {
      model: (await provider()).responses(modelId(request.model)),
      providerOptions: {
        openai: { store: false, include: ['reasoning.encrypted_content'], ...(effort === undefined ? {} : { reasoningEffort: effort }) },
      },
      omitted: omittedArgs(RESPONSES_ADAPTER, request.llmArgs, false),
    };
  });
};
