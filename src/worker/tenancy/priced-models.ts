// Under a USD budget every model a run calls must have a known price: a call without one cannot be bounded
// before it is made, so it could not be held to the budget. Such a run is refused at launch, not run unmetered.
import type { ApiIssue } from '../../api/index.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import { isPriced } from '../../core/llm/pricing.ts';

/** The models the run calls on the tenant's provider: its agent's (not a remote or external one), its user simulator's, its judge's. */
const budgetedModels = (config: RunConfig): Array<[field: string, model: string]> => [
  ...(isExternalAgent(config.agent) || config.agent_endpoint !== null ? [] : [['llm_agent', config.llm_agent] as [string, string]]),
  ...(config.user === 'user_simulator' ? [['llm_user', config.llm_user] as [string, string]] : []),
  ['llm_judge', config.llm_judge],
];

/** Each model of the run without a known price, naming the quota it could not be held to. */
export const unpricedModelIssues = (config: RunConfig): ApiIssue[] =>
  budgetedModels(config)
    .filter(([, model]) => !isPriced(model))
    .map(([path, model]) => ({ path, message: `the model ${model} has no known price, so its calls cannot be held to the quota usd_per_day` }));
