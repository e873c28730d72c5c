// Per-message cost in USD, the part of litellm's `completion_cost` the reference records (spec §4.7, §10.6).
// The models the reference's results are usually recorded with keep litellm's figures (DEFAULT_PRICES), so
// recorded costs agree; every other model is priced from the maintained catalogue bundled with
// @pydantic/genai-prices (its data ships in the package: no network at run time), as the catalogue's provider
// the registry (providers.ts) names for the model's prefix.
// Reasoning tokens are part of the completion and billed at the output rate by every provider priced here;
// cache reads and writes are part of the prompt, billed at their own rates where the price has them.
import { calcPrice } from '@pydantic/genai-prices';
import type { LlmUsage } from './types.ts';
import { catalogueProvider } from './providers.ts';

/** USD per token. The cached rates price the cached share of the prompt (reads as litellm does; writes where a provider bills them). */
export interface ModelPrice {
  readonly inputPerToken: number;
  readonly outputPerToken: number;
  readonly cachedInputPerToken?: number;
  readonly cacheWritePerToken?: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export type TokenCounts = LlmUsage;

const GPT_4_1: ModelPrice = { inputPerToken: 2e-6, outputPerToken: 8e-6, cachedInputPerToken: 5e-7 };
const GPT_4_1_MINI: ModelPrice = { inputPerToken: 4e-7, outputPerToken: 1.6e-6, cachedInputPerToken: 1e-7 };
const GPT_4_1_NANO: ModelPrice = { inputPerToken: 1e-7, outputPerToken: 4e-7, cachedInputPerToken: 2.5e-8 };
const GPT_4O: ModelPrice = { inputPerToken: 2.5e-6, outputPerToken: 1e-5, cachedInputPerToken: 1.25e-6 };
const GPT_4O_MINI: ModelPrice = { inputPerToken: 1.5e-7, outputPerToken: 6e-7, cachedInputPerToken: 7.5e-8 };

/** OpenAI list prices of the models the benchmark is usually run with (litellm's table agrees). */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': GPT_4_1,
  'gpt-4.1-2025-04-14': GPT_4_1,
  'gpt-4.1-mini': GPT_4_1_MINI,
  'gpt-4.1-mini-2025-04-14': GPT_4_1_MINI,
  'gpt-4.1-nano': GPT_4_1_NANO,
  'gpt-4.1-nano-2025-04-14': GPT_4_1_NANO,
  'gpt-4o': GPT_4O,
  'gpt-4o-2024-08-06': GPT_4O,
  'gpt-4o-2024-11-20': GPT_4O,
  'gpt-4o-mini': GPT_4O_MINI,
  'gpt-4o-mini-2024-07-18': GPT_4O_MINI,
};

// The reference's `_parse_ft_model_name`: a fine-tune is priced as its base model.
const FINE_TUNE = /^ft:([^:]+):\w+::\w+/;

/** The table key for a model name: `provider/model` by its last segment, `ft:<base>:<org>::<id>` as `<base>`. */
export const priceKey = (model: string): string => {
  const base = FINE_TUNE.exec(model)?.[1] ?? model;
  return base.slice(base.lastIndexOf('/') + 1);
};

/** The price of a model: an exact entry wins, then the entry of its `priceKey`. */
export const findPrice = (model: string, prices: PriceTable = DEFAULT_PRICES): ModelPrice | null => {
  for (const key of [model, priceKey(model)]) {
    if (Object.hasOwn(prices, key)) return prices[key] ?? null;
  }
  return null;
};

/** The cached parts of the prompt, each bounded so that together they never exceed it. */
const cacheParts = (usage: TokenCounts): { read: number; write: number } => {
  const read = Math.min(usage.cache_read_tokens ?? 0, usage.prompt_tokens);
  return { read, write: Math.min(usage.cache_write_tokens ?? 0, usage.prompt_tokens - read) };
};

/** USD from the catalogue, or null when it does not know the model. */
export const catalogueCost = (model: string, usage: TokenCounts): number | null => {
  const providerId = catalogueProvider(model);
  const { read, write } = cacheParts(usage);
  // The catalogue's input count includes the cached tokens, as the prompt count does.
  const usageForCatalogue = { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, cache_read_tokens: read, cache_write_tokens: write };
  const result = calcPrice(usageForCatalogue, priceKey(model), providerId === undefined ? undefined : { providerId });
  return result === null || result === undefined ? null : result.total_price;
};

/** Whether a model has a price: a table entry, or (with the default table) a catalogue entry. */
export const isPriced = (model: string, prices: PriceTable = DEFAULT_PRICES): boolean =>
  findPrice(model, prices) !== null ||
  (prices === DEFAULT_PRICES && catalogueCost(model, { prompt_tokens: 1, completion_tokens: 1 }) !== null);

/** USD for one call: the table's figure, else (with the default table) the catalogue's; null for a model priced nowhere. */
export const callCost = (model: string, usage: TokenCounts, prices: PriceTable = DEFAULT_PRICES): number | null => {
  const price = findPrice(model, prices);
  if (price === null) return prices === DEFAULT_PRICES ? catalogueCost(model, usage) : null;
  const { read, write } = cacheParts(usage);
  return (
    (usage.prompt_tokens - read - write) * price.inputPerToken +
    read * (price.cachedInputPerToken ?? price.inputPerToken) +
    write * (price.cacheWritePerToken ?? price.inputPerToken) +
    usage.completion_tokens * price.outputPerToken
  );
};

/**
 * USD for one completion as a message records it: 0 for a model priced nowhere or missing usage, as the
 * reference records litellm's failure to price; `isPriced` tells a display to say "unpriced" instead.
 */
export const completionCost = (model: string, usage: TokenCounts | null, prices: PriceTable = DEFAULT_PRICES): number =>
  usage === null ? 0 : (callCost(model, usage, prices) ?? 0);
