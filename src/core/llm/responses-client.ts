// The OpenAI Responses adapter (@ai-sdk/openai), for models named `openai/responses/MODEL`: nothing is stored at
// OpenAI (`store: false`), so each turn's reasoning items come back encrypted (`reasoning.encrypted_content`)
// and are sent again, right before their function calls, on the next request of the same model. Bare and
// `openai/` names stay on Chat Completions with the reference's byte-exact payload (ai-sdk-client.ts).
import { createOpenAI } from '@ai-sdk/openai';
import { retryingClient } from './ai-sdk-client.ts';
import { omittedArgs, providerArgsIssue, responsesEffort } from './reasoning-args.ts';
import { adapterAttempt, providerSettings, refuseArgs } from './sdk-adapter.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import type { LlmClient } from './types.ts';

export const RESPONSES_ADAPTER = 'openai.responses';

export const createResponsesClient = (config: ProviderClientConfig, modelId: (name: string) => string): LlmClient => {
  const provider = createOpenAI(providerSettings(config));
  return retryingClient(config, (request, timeoutMs) => {
    refuseArgs(providerArgsIssue('openai.responses', request.llmArgs));
    const effort = responsesEffort(request.llmArgs);
    return adapterAttempt(
      {
        adapter: RESPONSES_ADAPTER,
        model: provider.responses(modelId(request.model)),
        providerOptions: {
          openai: { store: false, include: ['reasoning.encrypted_content'], ...(effort === undefined ? {} : { reasoningEffort: effort }) },
        },
        omitted: omittedArgs('openai.responses', request.llmArgs, false),
      },
      request,
      timeoutMs,
      config.apiKey,
    );
  });
};
