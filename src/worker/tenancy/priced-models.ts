// Under a USD budget every model a run calls must have a known price: a call without one cannot be bounded
// before it is made, so it could not be held to the budget. Such a run is refused at launch, not run unmetered;
// like a quota's, the refusal is a value each caller answers in its own terms (the HTTP API a 400 naming the
// field, the episode service an invalid request, the cron the schedule's last error).
import type { ApiIssue } from '../../api/index.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import { isPriced } from '../../core/llm/pricing.ts';

/** Why a run was not created under the usd_per_day quota: some of its models have no known price. */
export interface UnpricedRefusal {
  readonly kind: 'unpriced';
  /** `Under the quota usd_per_day every model needs a known price: <field>: <why>; …`. */
  readonly message: string;
  /** One issue per unpriced model, its path the model's field. */
  readonly issues: readonly ApiIssue[];
}

export const isUnpricedRefusal = (outcome: unknown): outcome is UnpricedRefusal =>
  typeof outcome === 'object' && outcome !== null && (outcome as { kind?: unknown }).kind === 'unpriced';

/** The models the run calls on the tenant's provider: its agent's (not a remote or external one), its user simulator's, its judge's. */
const budgetedModels = (config: RunConfig): Array<[field: string, model: string]> => [
  ...(isExternalAgent(config.agent) || config.agent_endpoint !== null ? [] : [['llm_agent', config.llm_agent] as [string, string]]),
  ...(config.user === 'user_simulator' ? [['llm_user', config.llm_user] as [string, string]] : []),
  ['llm_judge', config.llm_judge],
];

/** The refusal of a run under a USD budget that calls a model without a known price, or null when every one has one. */
export const unpricedRefusal = (config: RunConfig): UnpricedRefusal | null => {
  const issues = budgetedModels(config)
    .filter(([, model]) => !isPriced(model))
    .map(([path, model]) => ({ path, message: `the model ${model} has no known price, so its calls cannot be held to the quota usd_per_day` }));
  if (issues.length === 0) return null;
  return { kind: 'unpriced', message: `Under the quota usd_per_day every model needs a known price: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues };
};
