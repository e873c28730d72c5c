// Token counts read from each response shape: chat completions (OpenAI and proxies passing Anthropic's cache
// counts on), the AI SDK's normalized usage (Anthropic, Google), embeddings; absent parts stay absent.
import { describe, expect, it } from 'vitest';
import type { LanguageModelUsage } from 'ai';
import { chatCompletionsUsage, embeddingUsage, sdkUsage } from '../../../src/core/llm/usage.ts';

const sdk = (over: Partial<LanguageModelUsage>): LanguageModelUsage => ({
  inputTokens: 100,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: 20,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: 120,
  ...over,
});

describe('usage of one call', () => {
  it('chat completions: the reference keys first, then cached and reasoning tokens when reported', () => {
    expect(chatCompletionsUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 })).toEqual({ completion_tokens: 5, prompt_tokens: 10 });
    expect(Object.keys(chatCompletionsUsage({ prompt_tokens: 10, completion_tokens: 5 })!)).toEqual(['completion_tokens', 'prompt_tokens']);
    expect(
      chatCompletionsUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 3 } }),
    ).toEqual({ completion_tokens: 5, prompt_tokens: 10, reasoning_tokens: 3, cache_read_tokens: 4 });
    // Zero details (OpenAI always sends them) add nothing.
    expect(chatCompletionsUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } })).toEqual({
      completion_tokens: 5,
      prompt_tokens: 10,
    });
  });

  it('chat completions through a proxy of Anthropic: its cache read and creation counts', () => {
    expect(chatCompletionsUsage({ prompt_tokens: 10, completion_tokens: 5, cache_read_input_tokens: 6, cache_creation_input_tokens: 2 })).toEqual({
      completion_tokens: 5,
      prompt_tokens: 10,
      cache_read_tokens: 6,
      cache_write_tokens: 2,
    });
  });

  it('no usage, or counts that are not numbers: none', () => {
    expect(chatCompletionsUsage(undefined)).toBeNull();
    expect(chatCompletionsUsage({ prompt_tokens: '10', completion_tokens: 5 })).toBeNull();
  });

  it("the AI SDK's usage: cache reads and writes, reasoning tokens", () => {
    expect(sdkUsage(sdk({}))).toEqual({ completion_tokens: 20, prompt_tokens: 100 });
    expect(
      sdkUsage(sdk({ inputTokenDetails: { noCacheTokens: 30, cacheReadTokens: 50, cacheWriteTokens: 20 }, outputTokenDetails: { textTokens: 5, reasoningTokens: 15 } })),
    ).toEqual({ completion_tokens: 20, prompt_tokens: 100, reasoning_tokens: 15, cache_read_tokens: 50, cache_write_tokens: 20 });
    expect(sdkUsage(sdk({ inputTokens: undefined }))).toBeNull();
  });

  it('embeddings: all prompt', () => {
    expect(embeddingUsage(7)).toEqual({ completion_tokens: 0, prompt_tokens: 7 });
    expect(embeddingUsage(undefined)).toEqual({ completion_tokens: 0, prompt_tokens: 0 });
  });
});
