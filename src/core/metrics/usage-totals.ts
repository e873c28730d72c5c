// Token totals and cost per participant over a run's messages, for the summary; a cost reads n/a when the
// participant's model has no known price (its recorded cost, 0, would read as free).
import { isPriced } from '../llm/pricing.ts';
import type { Results } from '../schemas/simulation.ts';

export interface ParticipantUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** USD, or null when the model has no known price. */
  readonly cost: number | null;
  readonly model: string | null;
}

const tokens = (usage: Readonly<Record<string, unknown>> | null, key: string): number => {
  const value = usage?.[key];
  return typeof value === 'number' ? value : 0;
};

const totals = (results: Results, role: 'assistant' | 'user', model: string | null): ParticipantUsage => {
  let promptTokens = 0;
  let completionTokens = 0;
  let cost = 0;
  for (const simulation of results.simulations) {
    for (const message of simulation.messages ?? []) {
      if (message.role !== role) continue;
      promptTokens += tokens(message.usage as Readonly<Record<string, unknown>> | null, 'prompt_tokens');
      completionTokens += tokens(message.usage as Readonly<Record<string, unknown>> | null, 'completion_tokens');
      cost += Number(message.cost ?? 0);
    }
  }
  return { promptTokens, completionTokens, cost: model !== null && isPriced(model) ? cost : null, model };
};

export const usageTotals = (results: Results): { readonly agent: ParticipantUsage; readonly user: ParticipantUsage } => ({
  agent: totals(results, 'assistant', results.info.agent_info.llm ?? null),
  user: totals(results, 'user', results.info.user_info.llm ?? null),
});
