// Per-model completion cost: table lookup by name, provider prefix or fine-tune base; 0 when unknown.
import { describe, expect, it } from 'vitest';
import { completionCost, findPrice, priceKey } from '../../../src/core/llm/pricing.ts';

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
    expect(completionCost('gpt-4.1', { ...usage, cached_tokens: 1000 })).toBeCloseTo(1000 * 5e-7 + 100 * 8e-6, 15);
    expect(completionCost('gpt-4.1', { ...usage, cached_tokens: 5000 })).toBeCloseTo(1000 * 5e-7 + 100 * 8e-6, 15);
  });

  it('a custom table replaces the default one, exact names first', () => {
    const prices = { 'acme/model': { inputPerToken: 1, outputPerToken: 0 }, model: { inputPerToken: 2, outputPerToken: 0 } };
    expect(completionCost('acme/model', usage, prices)).toBe(1000);
    expect(completionCost('other/model', usage, prices)).toBe(2000);
    expect(completionCost('gpt-4.1', usage, prices)).toBe(0);
  });
});
