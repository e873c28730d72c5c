// The Anthropic adapter (Messages API through @ai-sdk/anthropic). Extended thinking (`thinking`, or litellm's
// `reasoning_effort` budgets) is turned on as asked; while it is on, temperature is left out, as Anthropic
// refuses it, and the turn's state records that (as it records the seed, which Anthropic has no use for). Each turn's thinking and redacted_thinking blocks
// with their signatures come back before its tool_use blocks on the next request of the same model. Prompt
// caching is asked for by default: a cache breakpoint on the system prompt and on the last tool. The max_tokens
// sent is litellm's (the llm_args' own, the thinking budget within it), so a run records what was sent.
import type { ModelMessage, ToolSet } from 'ai';
import { anthropicMaxOutputTokens, anthropicThinking, omittedArgs, promptCacheOn } from './reasoning-args.ts';
import { onFirstCall } from './on-first-call.ts';
import { adapterClient, providerSettings } from './sdk-adapter.ts';
import type { ProviderClientConfig } from './sdk-adapter.ts';
import type { LlmClient } from './types.ts';

export const ANTHROPIC_ADAPTER = 'anthropic' as const;

const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** Cache breakpoints on the system prompt and the last tool (the tools come first in Anthropic's prefix). */
const withCacheBreakpoints = ({ messages, tools }: { messages: ModelMessage[]; tools?: ToolSet }): void => {
  const system = messages.findIndex((m) => m.role === 'system');
  if (system >= 0) messages[system] = { ...messages[system]!, providerOptions: EPHEMERAL } as ModelMessage;
  const names = tools === undefined ? [] : Object.keys(tools);
  const last = names.at(-1);
  if (tools !== undefined && last !== undefined) tools[last] = { ...tools[last]!, providerOptions: EPHEMERAL };
};

export const createAnthropicClient = (config: ProviderClientConfig, modelId: (name: string) => string): LlmClient => {
  const provider = onFirstCall(async () => (await import('@ai-sdk/anthropic')).createAnthropic(providerSettings(config)));
  return adapterClient(config, ANTHROPIC_ADAPTER, async (request) => {
    const thinking = anthropicThinking(request.llmArgs);
    return {
      model: (await provider())(modelId(request.model)),
      providerOptions: thinking === undefined ? {} : { anthropic: { thinking } },
      omitted: omittedArgs(ANTHROPIC_ADAPTER, request.llmArgs, thinking?.type === 'enabled'),
      sampling: { maxOutputTokens: anthropicMaxOutputTokens(request.llmArgs) },
      ...(promptCacheOn(request.llmArgs) ? { shape: withCacheBreakpoints } : {}),
    };
  });
};
