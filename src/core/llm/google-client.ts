// The Google adapter (Gemini generateContent through @ai-sdk/google). Thinking is configured from litellm's
// `reasoning_effort` (a level for Gemini 3, a budget before) or `thinking`; each turn's thought signatures (on its
// function calls, and on text where given) go back on the next request of the same model, so the SDK never
// stands in its skip-validation placeholder for them.
import { geminiThinking, isGemini3OrNewer } from './reasoning-args.ts';
import { onFirstCall } from './on-first-call.ts';
import { adapterClient, providerSettings } from './sdk-adapter.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import type { LlmClient } from './types.ts';

export const GOOGLE_ADAPTER = 'google' as const;

export const createGoogleClient = (config: ProviderClientConfig, modelId: (name: string) => string): LlmClient => {
  const provider = onFirstCall(async () => (await import('@ai-sdk/google')).createGoogleGenerativeAI(providerSettings(config)));
  return adapterClient(config, GOOGLE_ADAPTER, async (request) => {
    const model = modelId(request.model);
    const thinkingConfig = geminiThinking(model, request.llmArgs);
    return {
      model: (await provider())(model),
      providerOptions: thinkingConfig === undefined ? {} : { google: { thinkingConfig } },
      omitted: [],
      // litellm sends Gemini 3 temperature 1.0 when none is given (and no thinking config without reasoning arguments).
      ...(isGemini3OrNewer(model) && request.llmArgs['temperature'] === undefined ? { sampling: { temperature: 1 } } : {}),
    };
  });
};
