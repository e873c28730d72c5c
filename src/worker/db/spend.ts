// The tenant's spend, read from its model calls (the ledger rows of db/schema.ts `model_calls`), and the two
// statements that write it: a reservation, written only if the call's bound fits the daily budget, and its
// settlement. The reservation is one conditional INSERT … SELECT, atomic for the reasons db/quotas.ts gives: no
// other call's reservation comes between the read of the spend and the write of the row.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { dayStart, quotaOf, statement } from './statement.ts';

/** USD of the tenant's calls made since `since`: settled ones at their cost, those in flight at their bound. */
export const usdSince = (tenant: string, since: string): SQL => sql`(
  SELECT coalesce(sum(coalesce(cost_usd, reserved_usd)), 0) FROM model_calls WHERE tenant_id = ${tenant} AND created_at >= ${since})`;

export const usdSpentSince = async (d1: D1Database, tenant: string, sinceIso: string): Promise<number> =>
  (await statement(d1, sql`SELECT ${usdSince(tenant, sinceIso)} AS usd`).first<{ usd: number }>())!.usd;

export interface CallToReserve {
  readonly id: string;
  readonly tenantId: string;
  readonly runId: string | null;
  readonly model: string;
  readonly reservedUsd: number;
}

/** What a refused reservation saw: the day's spend and the budget. */
export interface SpendRefusal {
  readonly usd_today: number;
  readonly usd_per_day: number;
}

/** Writes the call's reservation if today's spend plus its bound fits the tenant's budget; null when written. */
export const reserveCall = async (d1: D1Database, call: CallToReserve, nowMs: number): Promise<SpendRefusal | null> => {
  const since = dayStart(nowMs);
  const budget = quotaOf(call.tenantId, 'usd_per_day');
  const [, refusal] = await d1.batch<SpendRefusal>([
    statement(d1, sql`INSERT INTO model_calls (id, tenant_id, run_id, model, reserved_usd, created_at)
      SELECT ${call.id}, ${call.tenantId}, ${call.runId}, ${call.model}, ${call.reservedUsd}, ${new Date(nowMs).toISOString()}
      WHERE ${budget} IS NULL OR ${usdSince(call.tenantId, since)} + ${call.reservedUsd} <= ${budget}`),
    statement(d1, sql`SELECT ${usdSince(call.tenantId, since)} AS usd_today, ${budget} AS usd_per_day
      WHERE NOT EXISTS (SELECT 1 FROM model_calls WHERE id = ${call.id})`),
  ]);
  return refusal!.results[0] ?? null;
};

export const settleCall = async (d1: D1Database, id: string, costUsd: number): Promise<void> => {
  await statement(d1, sql`UPDATE model_calls SET cost_usd = ${costUsd} WHERE id = ${id}`).run();
};

/** What the run's model calls cost so far, every attempt's included: settled ones at their cost, those in flight at their bound. */
export const runSpend = async (d1: D1Database, runId: string): Promise<{ usd: number; calls: number; in_flight: number }> =>
  (await statement(d1, sql`SELECT coalesce(sum(coalesce(cost_usd, reserved_usd)), 0) AS usd, count(*) AS calls,
      coalesce(sum(cost_usd IS NULL), 0) AS in_flight FROM model_calls WHERE run_id = ${runId}`).first<{ usd: number; calls: number; in_flight: number }>())!;
