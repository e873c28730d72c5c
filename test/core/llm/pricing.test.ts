// Per-model completion cost: litellm's figures by name, provider prefix or fine-tune base, then the bundled
// catalogue; 0 (and isPriced false) when priced nowhere.
import { describe, expect, it } from 'vitest';
import { callCost, completionCost, findPrice, isPriced, priceKey } from '../../../src/core/llm/pricing.ts';

const usage = { prompt_tokens: 1000, completion_tokens: 100 };

describe('pricing', () => {
  it.each([
    ['gpt-4.1-2025-04-14', 1000 * 2e-6 + 100 * 8e-6],
    ['gpt-4.1', 1000 * 2e-6 + 100 * 8e-6],
    ['gpt-4.1-mini', 1000 * 4e-7 + 100 * 1.6e-6],
    ['gpt-4.1-nano', 1000 * 1e-7 + 100 * 4e-7],
    ['gpt-4o', 1000 * 2.5e-6 + 100 * 1e-5],
    ['gpt-4o-mini', 1000 * 1.5e-7 + 100 * 6e-7],
  ])('%s costs its list price per token', (model, expected) => {
    expect(completionCost(model, usage)).toBeCloseTo(expected, 15);
  });

  it('a provider/model name is priced by its last segment', () => {
    expect(priceKey('openai/gpt-4.1-mini')).toBe('gpt-4.1-mini');
    expect(completionCost('openrouter/openai/gpt-4o', usage)).toBe(completionCost('gpt-4o', usage));
  });

  it('a fine-tuned model ft:<base>:<org>::<id> is priced as its base, like the reference', () => {
    expect(priceKey('ft:gpt-4.1-mini-2025-04-14:sierra::BSQA2TFg')).toBe('gpt-4.1-mini-2025-04-14');
    expect(completionCost('ft:gpt-4.1-mini-2025-04-14:sierra::BSQA2TFg', usage)).toBeGreaterThan(0);
  });

  it('an unknown model or missing usage costs 0', () => {
    expect(findPrice('llama-3-70b')).toBeNull();
    expect(completionCost('llama-3-70b', usage)).toBe(0);
    expect(completionCost('gpt-4.1', null)).toBe(0);
  });

  it('cached prompt tokens use the cached rate and never exceed the prompt', () => {
    expect(completionCost('gpt-4.1', { ...usage, cache_read_tokens: 1000 })).toBeCloseTo(1000 * 5e-7 + 100 * 8e-6, 15);
    expect(completionCost('gpt-4.1', { ...usage, cache_read_tokens: 5000 })).toBeCloseTo(1000 * 5e-7 + 100 * 8e-6, 15);
  });

  it('a custom table replaces the default one, exact names first', () => {
    const prices = { 'acme/model': { inputPerToken: 1, outputPerToken: 0 }, model: { inputPerToken: 2, outputPerToken: 0 } };
    expect(completionCost('acme/model', usage, prices)).toBe(1000);
    expect(completionCost('other/model', usage, prices)).toBe(2000);
    expect(completionCost('gpt-4.1', usage, prices)).toBe(0);
  });

  it('models outside the table are priced from the bundled catalogue, by litellm-style provider prefix', () => {
    // Anthropic's list price of claude-sonnet-4: $3 / $15 per million input / output tokens.
    expect(completionCost('anthropic/claude-sonnet-4-20250514', usage)).toBeCloseTo(1000 * 3e-6 + 100 * 15e-6, 12);
    // Cached prompt tokens at the cached rate (gemini-2.5-pro: $1.25 input, $0.31 cached, $10 output per million).
    expect(completionCost('gemini/gemini-2.5-pro', usage)).toBeGreaterThan(0);
    expect(isPriced('gemini/gemini-2.5-pro')).toBe(true);
    // The table still wins for the models the reference records: litellm's figures, not the catalogue's.
    expect(completionCost('openai/gpt-4.1', { ...usage, cache_read_tokens: 400 })).toBeCloseTo(600 * 2e-6 + 400 * 5e-7 + 100 * 8e-6, 15);
  });

  it('a model priced nowhere: isPriced says so (a display shows n/a), the recorded cost stays 0 as the reference records it', () => {
    expect(isPriced('ollama_chat/llama3-local-finetune')).toBe(false);
    expect(completionCost('ollama_chat/llama3-local-finetune', usage)).toBe(0);
  });

  it('cache writes are billed at the cache-write rate, reads at the read rate (claude-sonnet-4-5: $3 in, $3.75 write, $0.30 read, $15 out per million)', () => {
    const cached = { prompt_tokens: 1000, completion_tokens: 100, cache_read_tokens: 500, cache_write_tokens: 200 };
    expect(callCost('anthropic/claude-sonnet-4-5', cached)).toBeCloseTo(300 * 3e-6 + 200 * 3.75e-6 + 500 * 0.3e-6 + 100 * 15e-6, 12);
    // A table price without a write rate bills writes as input; the parts never exceed the prompt.
    const table = { m: { inputPerToken: 1, outputPerToken: 0, cachedInputPerToken: 0.5, cacheWritePerToken: 2 } };
    expect(callCost('m', { prompt_tokens: 10, completion_tokens: 0, cache_read_tokens: 4, cache_write_tokens: 100 }, table)).toBe(4 * 0.5 + 6 * 2);
  });

  it('reasoning tokens are part of the completion: they add nothing beyond it', () => {
    expect(callCost('gpt-4.1', { ...usage, reasoning_tokens: 80 })).toBe(callCost('gpt-4.1', usage));
  });

  it('callCost is null, never 0, for a model priced nowhere; embeddings are priced from the catalogue', () => {
    expect(callCost('ollama_chat/llama3-local-finetune', usage)).toBeNull();
    expect(callCost('openai/text-embedding-3-large', { prompt_tokens: 1_000_000, completion_tokens: 0 })).toBeCloseTo(0.13, 12);
    expect(callCost('openrouter/qwen/qwen3-embedding-8b', { prompt_tokens: 1000, completion_tokens: 0 })).toBeNull();
  });
});
