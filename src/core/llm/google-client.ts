// The Google adapter (Gemini generateContent through @ai-sdk/google). Thinking is configured from litellm's
// `reasoning_effort` (a level for Gemini 3, a budget before) or `thinking`; each turn's thought signatures (on its
// function calls, and on text where given) go back on the next request of the same model, so the SDK never
// stands in its skip-validation placeholder for them.
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { retryingClient } from './ai-sdk-client.ts';
import { geminiThinking, providerArgsIssue } from './reasoning-args.ts';
import { adapterAttempt, providerSettings, refuseArgs } from './sdk-adapter.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import type { LlmClient } from './types.ts';

export const GOOGLE_ADAPTER = 'google';

export const createGoogleClient = (config: ProviderClientConfig, modelId: (name: string) => string): LlmClient => {
  const provider = createGoogleGenerativeAI(providerSettings(config));
  return retryingClient(config, (request, timeoutMs) => {
    refuseArgs(providerArgsIssue('google', request.llmArgs));
    const model = modelId(request.model);
    const thinkingConfig = geminiThinking(model, request.llmArgs);
    return adapterAttempt(
      {
        adapter: GOOGLE_ADAPTER,
        model: provider(model),
        providerOptions: thinkingConfig === undefined ? {} : { google: { thinkingConfig } },
        omitted: [],
      },
      request,
      timeoutMs,
      config.apiKey,
    );
  });
};
