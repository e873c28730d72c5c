// Token totals and cost per participant over a run's messages, for the summary; a cost reads n/a when the
// participant's model has no known price (its recorded cost, 0, would read as free).
import { isPriced } from '../llm/pricing.ts';
import type { Results } from '../schemas/simulation.ts';
import type { RunUsage } from '../schemas/api.ts';

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

/** A participant's sums, with the cost shown only for a model that has a price. */
export const participantUsage = (model: string | null, sums: { promptTokens: number; completionTokens: number; cost: number }): ParticipantUsage => ({
  promptTokens: sums.promptTokens,
  completionTokens: sums.completionTokens,
  cost: model !== null && isPriced(model) ? sums.cost : null,
  model,
});

const totals = (results: Results, role: 'assistant' | 'user', model: string | null): ParticipantUsage => {
  const sums = { promptTokens: 0, completionTokens: 0, cost: 0 };
  for (const simulation of results.simulations) {
    for (const message of simulation.messages ?? []) {
      if (message.role !== role) continue;
      sums.promptTokens += tokens(message.usage as Readonly<Record<string, unknown>> | null, 'prompt_tokens');
      sums.completionTokens += tokens(message.usage as Readonly<Record<string, unknown>> | null, 'completion_tokens');
      sums.cost += Number(message.cost ?? 0);
    }
  }
  return participantUsage(model, sums);
};

export const usageTotals = (results: Results): { readonly agent: ParticipantUsage; readonly user: ParticipantUsage } => ({
  agent: totals(results, 'assistant', results.info.agent_info.llm ?? null),
  user: totals(results, 'user', results.info.user_info.llm ?? null),
});

/** The usage as the API answers it (GET /v1/runs/:id/usage). */
export const runUsageOf = (usage: { readonly agent: ParticipantUsage; readonly user: ParticipantUsage }): RunUsage => {
  const one = (u: ParticipantUsage) => ({ model: u.model, prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, cost: u.cost });
  return { agent: one(usage.agent), user: one(usage.user) };
};
