// Tenants' quotas in D1, and what a tenant uses of them: episodes in flight, episodes launched and USD spent
// since 00:00 UTC, schedules.
import { drizzle } from 'drizzle-orm/d1';
import { eq } from 'drizzle-orm';
import type { TenantQuotas } from '../../core/schemas/api.ts';
import { tenantQuotas } from './schema.ts';

export type TenantQuotasRow = typeof tenantQuotas.$inferSelect;

export const NO_QUOTAS: TenantQuotas = { episodes_in_flight: null, episodes_per_day: null, schedules: null, usd_per_day: null };

export const findQuotas = async (d1: D1Database, tenant: string): Promise<TenantQuotas> => {
  const row = await drizzle(d1).select().from(tenantQuotas).where(eq(tenantQuotas.tenantId, tenant)).get();
  if (!row) return NO_QUOTAS;
  return { episodes_in_flight: row.episodesInFlight, episodes_per_day: row.episodesPerDay, schedules: row.schedules, usd_per_day: row.usdPerDay };
};

export const putQuotas = async (d1: D1Database, tenant: string, quotas: TenantQuotas): Promise<void> => {
  const values = {
    episodesInFlight: quotas.episodes_in_flight,
    episodesPerDay: quotas.episodes_per_day,
    schedules: quotas.schedules,
    usdPerDay: quotas.usd_per_day,
    updatedAt: new Date().toISOString(),
  };
  await drizzle(d1).insert(tenantQuotas).values({ tenantId: tenant, ...values }).onConflictDoUpdate({ target: tenantQuotas.tenantId, set: values });
};

export interface TenantUsage {
  readonly episodes_in_flight: number;
  readonly episodes_today: number;
  readonly schedules: number;
  /** Agent and user cost of the simulations finished today (unknown prices count 0). */
  readonly usd_today: number;
}

/** 00:00 UTC of the day of `nowMs`, as stored timestamps are written. */
export const dayStart = (nowMs: number): string => `${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00.000Z`;

export const usdSpentSince = async (d1: D1Database, tenant: string, sinceIso: string): Promise<number> =>
  (await d1
    .prepare(
      `SELECT coalesce(sum(coalesce(s.agent_cost, 0) + coalesce(json_extract(s.record, '$.user_cost'), 0)), 0) AS usd
         FROM simulations s JOIN runs r ON r.id = s.run_id WHERE r.tenant_id = ? AND s.created_at >= ?`,
    )
    .bind(tenant, sinceIso)
    .first<{ usd: number }>())!.usd;

export const tenantUsage = async (d1: D1Database, tenant: string, nowMs: number): Promise<TenantUsage> => {
  const since = dayStart(nowMs);
  const [inFlight, today, schedules, usd] = await Promise.all([
    // Episodes of running runs that have no simulation yet.
    d1
      .prepare(
        `SELECT coalesce(sum(r.total), 0) - (SELECT count(*) FROM simulations s JOIN runs q ON q.id = s.run_id WHERE q.tenant_id = ?1 AND q.status = 'running') AS n
           FROM runs r WHERE r.tenant_id = ?1 AND r.status = 'running'`,
      )
      .bind(tenant)
      .first<{ n: number }>(),
    d1.prepare(`SELECT coalesce(sum(total), 0) AS n FROM runs WHERE tenant_id = ? AND created_at >= ?`).bind(tenant, since).first<{ n: number }>(),
    d1.prepare(`SELECT count(*) AS n FROM schedules WHERE tenant_id = ?`).bind(tenant).first<{ n: number }>(),
    usdSpentSince(d1, tenant, since),
  ]);
  return { episodes_in_flight: inFlight!.n, episodes_today: today!.n, schedules: schedules!.n, usd_today: usd };
};
