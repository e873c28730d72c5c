// The token counts of one model call, read from each response shape the engine meets: a chat-completions body,
// the AI SDK's normalized usage (the native providers), an embeddings call. Cached and reasoning tokens are
// parts of the prompt and completion counts (OpenAI's convention, and the AI SDK's); each is kept only when the
// provider reports it, so a message of a provider without them keeps the reference's two keys.
import type { LanguageModelUsage } from 'ai';
import type { LlmUsage } from './types.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A reported count: a finite, non-negative integer, else 0. */
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/** The usage in the reference's key order (completion, prompt), the reported parts after them. */
export const callUsage = (prompt: number, completion: number, parts: { reasoning?: unknown; cacheRead?: unknown; cacheWrite?: unknown } = {}): LlmUsage => {
  const reasoning = count(parts.reasoning);
  const cacheRead = count(parts.cacheRead);
  const cacheWrite = count(parts.cacheWrite);
  return {
    completion_tokens: completion,
    prompt_tokens: prompt,
    ...(reasoning > 0 ? { reasoning_tokens: reasoning } : {}),
    ...(cacheRead > 0 ? { cache_read_tokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cache_write_tokens: cacheWrite } : {}),
  };
};

/**
 * A chat-completions `usage`: `prompt_tokens_details.cached_tokens` (OpenAI), `completion_tokens_details.reasoning_tokens`,
 * and the cache counts OpenAI-compatible proxies pass on from Anthropic (`cache_read_input_tokens`, `cache_creation_input_tokens`).
 */
export const chatCompletionsUsage = (raw: unknown): LlmUsage | null => {
  if (!isRecord(raw) || typeof raw['prompt_tokens'] !== 'number' || typeof raw['completion_tokens'] !== 'number') return null;
  const prompt = isRecord(raw['prompt_tokens_details']) ? raw['prompt_tokens_details'] : {};
  const completion = isRecord(raw['completion_tokens_details']) ? raw['completion_tokens_details'] : {};
  return callUsage(raw['prompt_tokens'], raw['completion_tokens'], {
    reasoning: completion['reasoning_tokens'],
    cacheRead: prompt['cached_tokens'] ?? raw['cache_read_input_tokens'],
    cacheWrite: raw['cache_creation_input_tokens'],
  });
};

/** The AI SDK's usage (the Anthropic, Google and OpenAI Responses adapters): its input total counts cache reads and writes, its output total the reasoning (Gemini's thoughts included). */
export const sdkUsage = (usage: LanguageModelUsage): LlmUsage | null => {
  if (usage.inputTokens === undefined || usage.outputTokens === undefined) return null;
  return callUsage(usage.inputTokens, usage.outputTokens, {
    reasoning: usage.outputTokenDetails?.reasoningTokens,
    cacheRead: usage.inputTokenDetails?.cacheReadTokens,
    cacheWrite: usage.inputTokenDetails?.cacheWriteTokens,
  });
};

/** An embeddings call: its tokens are all prompt (none when the provider does not say). */
export const embeddingUsage = (tokens: number | undefined): LlmUsage => callUsage(count(tokens), 0);
