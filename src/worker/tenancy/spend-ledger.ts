// The spend ledger of the Worker: each model call of a tenant (of a run, when it is made for one) reserved and
// settled in D1 (db/spend.ts), and the clients the Worker builds wrapped so that every call goes through it.
import { BUDGET_REFUSAL, budgetedClient } from '../../core/llm/budget.ts';
import type { SpendLedger } from '../../core/llm/budget.ts';
import type { LlmClient } from '../../core/llm/types.ts';
import { reserveCall, settleCall } from '../db/spend.ts';

/** Whose budget a call spends, and the run it is made for (null outside a run). */
export interface Payer {
  readonly tenant: string;
  readonly runId: string | null;
}

export const spendLedger = (env: Env, payer: Payer): SpendLedger => ({
  reserve: async ({ model, upperBoundUsd }) => {
    const id = crypto.randomUUID();
    const refusal = await reserveCall(env.DB, { id, tenantId: payer.tenant, runId: payer.runId, model, reservedUsd: upperBoundUsd }, Date.now());
    if (refusal === null) return { ok: true, id };
    return {
      ok: false,
      message: `${BUDGET_REFUSAL}: ${refusal.usd_today.toFixed(4)} USD spent today of ${refusal.usd_per_day} (calls in flight at their bound); a call of ${model} may cost up to ${upperBoundUsd.toFixed(4)} USD`,
    };
  },
  // A settlement that fails leaves the call counted at its bound, which only overstates the spend.
  settle: (id, costUsd) =>
    settleCall(env.DB, id, costUsd).catch((error: unknown) => console.warn(`model call ${id} not settled: ${error instanceof Error ? error.message : String(error)}`)),
});

/** The client, its calls reserved against and settled in the payer's spend. */
export const budgeted = (env: Env, payer: Payer, client: LlmClient): LlmClient => budgetedClient(client, spendLedger(env, payer));
