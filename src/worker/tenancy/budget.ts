// A run's daily USD budget: the tenant's usd_per_day as it stood when the run was launched. Each model call is
// held to it as it is made (spend-ledger.ts); a run whose tenant has spent it starts no more episodes.
import { dayStart } from '../db/statement.ts';
import { usdSpentSince } from '../db/spend.ts';

export interface RunBudget {
  readonly tenant: string;
  readonly usdPerDay: number;
}

/** Whether the tenant has spent the budget today (a run launched without one never has). */
export const budgetSpent = async (env: Env, budget: RunBudget | null, nowMs: number): Promise<boolean> =>
  budget !== null && (await usdSpentSince(env.DB, budget.tenant, dayStart(nowMs))) >= budget.usdPerDay;
