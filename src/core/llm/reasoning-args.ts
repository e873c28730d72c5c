// The llm_args a provider of its own takes, as litellm accepts them for it, and their mapping onto the AI SDK's
// provider options: `reasoning_effort` for every provider (litellm's budgets and levels), Anthropic's
// `thinking: {type, budget_tokens}`, Gemini's thinking config (litellm's `thinking` mapping). An argument the
// provider cannot take is refused by name, never dropped. The OpenAI-compatible route sends llm_args as they are.
import { isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { AdapterName } from './providers.ts';
import type { LlmRequest } from './types.ts';

/** The adapters whose llm_args are mapped here: every one but the OpenAI-compatible route's. */
export type ArgsAdapter = Exclude<AdapterName, 'openai'>;

/** litellm's own arguments, which steer the client and never reach a provider (`prompt_cache` is tau2-edge's). */
const CLIENT_ARGS = ['num_retries', 'timeout', 'api_base', 'base_url', 'prompt_cache'];
// `seed` is taken everywhere: the engine adds the episode's seed to the agent's args, as the reference does; a
// provider without seeds leaves it out and the turn's state records that (SEEDLESS).
const SAMPLING_ARGS = ['temperature', 'max_tokens', 'max_completion_tokens', 'top_p', 'seed'];

const ACCEPTED: Record<ArgsAdapter, ReadonlySet<string>> = {
  anthropic: new Set([...CLIENT_ARGS, ...SAMPLING_ARGS, 'reasoning_effort', 'thinking']),
  google: new Set([...CLIENT_ARGS, ...SAMPLING_ARGS, 'reasoning_effort', 'thinking']),
  'openai.responses': new Set([...CLIENT_ARGS, ...SAMPLING_ARGS, 'reasoning_effort']),
};

/** Adapters whose API has no seed. */
export const SEEDLESS: ReadonlySet<ArgsAdapter> = new Set(['anthropic', 'openai.responses']);

/** The llm_args an adapter leaves out by its provider's rules: a seed it has no use for, temperature while Anthropic thinks. */
export const omittedArgs = (adapter: ArgsAdapter, llmArgs: LlmRequest['llmArgs'], thinkingOn: boolean): string[] => [
  ...(thinkingOn && llmArgs['temperature'] !== undefined ? ['temperature'] : []),
  ...(SEEDLESS.has(adapter) && llmArgs['seed'] !== undefined ? ['seed'] : []),
];

/** An llm_args key a provider refuses, and why. */
export interface ArgsIssue {
  readonly key: string;
  readonly message: string;
}

// litellm's thinking budgets (constants DEFAULT_REASONING_EFFORT_*_THINKING_BUDGET).
const BUDGETS = { minimal: 128, low: 1024, medium: 2048, high: 4096 } as const;
/** Anthropic refuses a budget under 1024 tokens; litellm sends `minimal` as the low budget there. */
const ANTHROPIC_MIN_BUDGET = 1024;

const EFFORTS: Record<ArgsAdapter, readonly string[]> = {
  anthropic: ['none', 'minimal', 'low', 'medium', 'high'],
  google: ['none', 'disable', 'minimal', 'low', 'medium', 'high'],
  'openai.responses': ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'],
};

const isDict = (v: PyValue | undefined): v is Record<string, PyValue> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isPyFloat(v) && !(v instanceof Map);

const intOf = (v: PyValue | undefined): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** Anthropic's `thinking`, checked as its API checks it. */
const thinkingIssue = (adapter: ArgsAdapter, thinking: PyValue): string | null => {
  if (!isDict(thinking)) return 'thinking must be an object {"type": "enabled", "budget_tokens": N}';
  const type = thinking['type'];
  if (type !== 'enabled' && type !== 'disabled') return 'thinking.type must be "enabled" or "disabled"';
  const budget = thinking['budget_tokens'];
  if (type === 'disabled') return null;
  if (budget === undefined && adapter === 'google') return null;
  const n = intOf(budget);
  if (n === undefined) return 'thinking.budget_tokens must be an integer';
  if (adapter === 'anthropic' && n < ANTHROPIC_MIN_BUDGET) return `thinking.budget_tokens must be at least ${ANTHROPIC_MIN_BUDGET}`;
  if (n < 0) return 'thinking.budget_tokens must not be negative';
  return null;
};

/** Why a role's llm_args cannot go to `adapter`'s provider, or null. */
export const providerArgsIssue = (adapter: ArgsAdapter, llmArgs: LlmRequest['llmArgs']): ArgsIssue | null => {
  for (const key of Object.keys(llmArgs)) {
    if (!ACCEPTED[adapter].has(key)) return { key, message: `${key} is not an argument ${adapter} models take` };
  }
  const effort = llmArgs['reasoning_effort'];
  if (effort !== undefined && (typeof effort !== 'string' || !EFFORTS[adapter].includes(effort))) {
    return { key: 'reasoning_effort', message: `reasoning_effort must be one of ${EFFORTS[adapter].join(', ')} for ${adapter} models` };
  }
  const thinking = llmArgs['thinking'];
  if (thinking !== undefined) {
    if (effort !== undefined) return { key: 'thinking', message: 'give thinking or reasoning_effort, not both' };
    const issue = thinkingIssue(adapter, thinking);
    if (issue) return { key: 'thinking', message: issue };
  }
  const cache = llmArgs['prompt_cache'];
  if (cache !== undefined && typeof cache !== 'boolean') return { key: 'prompt_cache', message: 'prompt_cache must be true or false' };
  return adapter === 'anthropic' ? anthropicBudgetIssue(llmArgs) : null;
};

/** llm_args' `max_tokens` (or `max_completion_tokens`), when an integer. */
const maxTokensArg = (llmArgs: LlmRequest['llmArgs']): number | undefined => intOf(llmArgs['max_tokens'] ?? llmArgs['max_completion_tokens']);

/** Anthropic refuses a thinking budget that is not below the call's max_tokens: refused here before any call. */
const anthropicBudgetIssue = (llmArgs: LlmRequest['llmArgs']): ArgsIssue | null => {
  const thinking = anthropicThinking(llmArgs);
  const maxTokens = maxTokensArg(llmArgs);
  if (thinking?.type !== 'enabled' || maxTokens === undefined || thinking.budgetTokens < maxTokens) return null;
  const budget = llmArgs['thinking'] === undefined ? `reasoning_effort ${String(llmArgs['reasoning_effort'])}'s thinking budget` : 'thinking.budget_tokens';
  return {
    key: llmArgs['thinking'] === undefined ? 'reasoning_effort' : 'thinking',
    message: `${budget} (${thinking.budgetTokens}) must be less than max_tokens (${maxTokens}): Anthropic counts the thinking within max_tokens and refuses every call otherwise`,
  };
};

/** litellm's DEFAULT_MAX_TOKENS: the answer's room it adds to a thinking budget when max_tokens is not given. */
const LITELLM_DEFAULT_MAX_TOKENS = 4096;

/**
 * The `maxOutputTokens` to give @ai-sdk/anthropic so that the max_tokens on the wire is litellm's: the SDK adds the
 * thinking budget to it, while litellm sends max_tokens as given (the budget counted within it), or, with thinking
 * on and none given, the budget plus its default. Without thinking, the llm_args' value (unset: the model's limit).
 */
export const anthropicMaxOutputTokens = (llmArgs: LlmRequest['llmArgs']): number | undefined => {
  const thinking = anthropicThinking(llmArgs);
  const maxTokens = maxTokensArg(llmArgs);
  if (thinking?.type !== 'enabled') return maxTokens;
  return maxTokens === undefined ? LITELLM_DEFAULT_MAX_TOKENS : maxTokens - thinking.budgetTokens;
};

/** Anthropic's thinking setting from `thinking` or `reasoning_effort` (litellm's budgets), or undefined. */
export const anthropicThinking = (llmArgs: LlmRequest['llmArgs']): { type: 'enabled'; budgetTokens: number } | { type: 'disabled' } | undefined => {
  const thinking = llmArgs['thinking'];
  if (isDict(thinking)) {
    return thinking['type'] === 'enabled' ? { type: 'enabled', budgetTokens: intOf(thinking['budget_tokens'])! } : { type: 'disabled' };
  }
  const effort = llmArgs['reasoning_effort'];
  if (typeof effort !== 'string' || effort === 'none') return undefined;
  const budget = BUDGETS[effort as keyof typeof BUDGETS];
  return { type: 'enabled', budgetTokens: Math.max(budget, ANTHROPIC_MIN_BUDGET) };
};

/** litellm's smallest budgets of the Gemini 2.5 models for `minimal` (else its general one). */
const geminiMinimalBudget = (model: string): number => {
  const name = model.toLowerCase();
  if (name.includes('gemini-2.5-flash-lite')) return 512;
  if (name.includes('gemini-2.5-pro')) return 128;
  if (name.includes('gemini-2.5-flash')) return 1;
  return BUDGETS.minimal;
};

export const isGemini3OrNewer = (model: string): boolean => {
  const match = /gemini-(\d+)/.exec(model.toLowerCase());
  return match !== null && Number(match[1]) >= 3;
};

export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: 'low' | 'high';
  includeThoughts?: boolean;
}

/** Gemini's thinking config from `reasoning_effort` (a level for Gemini 3, else a budget) or `thinking`, as litellm maps them. */
export const geminiThinking = (model: string, llmArgs: LlmRequest['llmArgs']): GeminiThinkingConfig | undefined => {
  const effort = llmArgs['reasoning_effort'];
  if (typeof effort === 'string') {
    const off = effort === 'none' || effort === 'disable';
    if (isGemini3OrNewer(model)) {
      // Gemini 3 cannot turn thinking off: litellm keeps the low level and hides the thoughts.
      return { thinkingLevel: effort === 'medium' || effort === 'high' ? 'high' : 'low', includeThoughts: !off };
    }
    if (off) return { thinkingBudget: 0, includeThoughts: false };
    return { thinkingBudget: effort === 'minimal' ? geminiMinimalBudget(model) : BUDGETS[effort as 'low' | 'medium' | 'high'], includeThoughts: true };
  }
  const thinking = llmArgs['thinking'];
  if (!isDict(thinking)) return undefined;
  const budget = intOf(thinking['budget_tokens']);
  return {
    ...(thinking['type'] === 'enabled' && budget !== 0 ? { includeThoughts: true } : {}),
    ...(budget === undefined ? {} : { thinkingBudget: budget }),
  };
};

/** The Responses API's reasoning effort, or undefined. */
export const responsesEffort = (llmArgs: LlmRequest['llmArgs']): string | undefined => {
  const effort = llmArgs['reasoning_effort'];
  return typeof effort === 'string' ? effort : undefined;
};

/** Whether prompt caching is asked for (on unless `prompt_cache: false`). */
export const promptCacheOn = (llmArgs: LlmRequest['llmArgs']): boolean => llmArgs['prompt_cache'] !== false;
