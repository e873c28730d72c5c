// Tenants' quotas in D1, what a tenant uses of them (episodes in flight, episodes launched and USD spent since
// 00:00 UTC, schedules), and the statements that reserve quota by writing the row that is the usage.
//
// Why reservations are single conditional statements: usage is not a counter kept beside the rows, it is computed
// from the rows themselves (a run row is its episodes launched and, while it runs, in flight; a schedule row is a
// schedule kept). So reserving is writing that row, and `INSERT … SELECT … WHERE <usage + asked fits>` reads the
// usage and writes the row in one statement. D1 runs the statements (and each batch, as one transaction) of a
// database one at a time on its primary, so no other launch can come between the read and the write: the
// database is the one authority for every tenant. What a launch reserved is given back by the same rows: a run
// ending (or failing to start) leaves flight, a failed run counts only the episodes that ran, and an idempotent
// replay writes nothing because its key is taken. The admin view reads usage with the same SQL.
import { drizzle } from 'drizzle-orm/d1';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { TenantQuotas, TenantUsage } from '../../api/index.ts';
import { reruns, runs, schedules, tenantQuotas } from './schema.ts';
import type { RunRow } from './runs.ts';
import type { ScheduleRow } from './schedules.ts';
import { dayStart, quotaOf as quota, statement } from './statement.ts';
import { usdSince } from './spend.ts';

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

/** Episodes of the tenant's running runs that have no simulation yet. */
const inFlight = (tenant: string): SQL => sql`(
  (SELECT coalesce(sum(total), 0) FROM runs WHERE tenant_id = ${tenant} AND status = 'running')
  - (SELECT count(*) FROM simulations s JOIN runs r ON r.id = s.run_id WHERE r.tenant_id = ${tenant} AND r.status = 'running'))`;

/** Episodes launched since `since`: runs created (a run that failed to start only what ran) and reruns. */
const launchedSince = (tenant: string, since: string): SQL => sql`(
  (SELECT coalesce(sum(CASE WHEN r.status = 'failed' THEN (SELECT count(*) FROM simulations s WHERE s.run_id = r.id) ELSE r.total END), 0)
     FROM runs r WHERE r.tenant_id = ${tenant} AND r.created_at >= ${since})
  + (SELECT coalesce(sum(episodes), 0) FROM reruns WHERE tenant_id = ${tenant} AND created_at >= ${since}))`;

const schedulesKept = (tenant: string): SQL => sql`(SELECT count(*) FROM schedules WHERE tenant_id = ${tenant})`;

const usageColumns = (tenant: string, since: string): SQL =>
  sql`${inFlight(tenant)} AS episodes_in_flight, ${launchedSince(tenant, since)} AS episodes_today, ${schedulesKept(tenant)} AS schedules, ${usdSince(tenant, since)} AS usd_today`;

export const tenantUsage = async (d1: D1Database, tenant: string, nowMs: number): Promise<TenantUsage> =>
  (await statement(d1, sql`SELECT ${usageColumns(tenant, dayStart(nowMs))}`).first<TenantUsage>())!;

export type RunQuota = 'usd_per_day' | 'episodes_per_day' | 'episodes_in_flight';
export type Quota = RunQuota | 'schedules';

/** Each quota a launch of `asked` episodes must fit, in the order a refusal names them. */
const runQuotasFit = (tenant: string, since: string, asked: SQL): [RunQuota, SQL][] => [
  // Spend is reserved call by call (db/spend.ts): a launch needs some of the budget left.
  ['usd_per_day', sql`(${quota(tenant, 'usd_per_day')} IS NULL OR ${usdSince(tenant, since)} < ${quota(tenant, 'usd_per_day')})`],
  ['episodes_per_day', sql`(${quota(tenant, 'episodes_per_day')} IS NULL OR ${launchedSince(tenant, since)} + ${asked} <= ${quota(tenant, 'episodes_per_day')})`],
  ['episodes_in_flight', sql`(${quota(tenant, 'episodes_in_flight')} IS NULL OR ${inFlight(tenant)} + ${asked} <= ${quota(tenant, 'episodes_in_flight')})`],
];

/** The tenant's schedules quota, and the operator's limit whether or not the tenant has one. */
const scheduleQuotaFits = (tenant: string, maxSchedules: number): [Quota, SQL][] => [
  ['schedules', sql`(${schedulesKept(tenant)} < ${maxSchedules} AND (${quota(tenant, 'schedules')} IS NULL OR ${schedulesKept(tenant)} < ${quota(tenant, 'schedules')}))`],
];

const allFit = (fits: [Quota, SQL][]): SQL => sql.join(fits.map(([, fit]) => fit), sql` AND `);

/** `row` as the values of an INSERT … SELECT, in the table's column order. */
const rowValues = (table: SQLiteTable, row: Record<string, unknown>): { names: SQL; values: SQL } => {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => row[key] !== undefined);
  return {
    names: sql.join(columns.map(([, column]) => sql.identifier(column.name)), sql`, `),
    values: sql.join(columns.map(([key, column]) => sql.param(row[key], column)), sql`, `),
  };
};

/** Inserts `row` only if `condition` holds as the statement runs; a row whose key is taken is not inserted either. */
const insertIf = (table: SQLiteTable, row: Record<string, unknown>, condition: SQL): SQL => {
  const { names, values } = rowValues(table, row);
  return sql`INSERT INTO ${table} (${names}) SELECT ${values} WHERE ${condition} ON CONFLICT DO NOTHING`;
};

/** Why a reservation wrote nothing, seen in the same transaction as the refused write. */
export interface QuotaSnapshot {
  /** The first quota the launch does not fit; null when every quota fits (the key was taken, or nothing was asked). */
  readonly quota: Quota | null;
  readonly usage: TenantUsage;
  readonly quotas: TenantQuotas;
  /** Episodes asked (schedules: 1). */
  readonly asked: number;
}

interface RefusalRow extends TenantUsage {
  readonly quota: Quota | null;
  readonly asked: number;
  readonly q_episodes_in_flight: number | null;
  readonly q_episodes_per_day: number | null;
  readonly q_schedules: number | null;
  readonly q_usd_per_day: number | null;
}

/** The refusal's snapshot, read only when `written` finds no row (a reservation that succeeded reads nothing). */
const refusalIfNotWritten = (tenant: string, since: string, fits: [Quota, SQL][], asked: SQL, written: SQL): SQL => sql`
  SELECT CASE ${sql.join(fits.map(([name, fit]) => sql`WHEN NOT ${fit} THEN ${name}`), sql` `)} END AS quota, ${asked} AS asked,
    ${usageColumns(tenant, since)},
    ${quota(tenant, 'episodes_in_flight')} AS q_episodes_in_flight, ${quota(tenant, 'episodes_per_day')} AS q_episodes_per_day,
    ${quota(tenant, 'schedules')} AS q_schedules, ${quota(tenant, 'usd_per_day')} AS q_usd_per_day
  WHERE NOT EXISTS (${written})`;

const refusalOf = (row: RefusalRow | undefined): QuotaSnapshot | null => {
  if (row === undefined) return null;
  const { quota: name, asked, q_episodes_in_flight, q_episodes_per_day, q_schedules, q_usd_per_day, ...usage } = row;
  return { quota: name, asked, usage, quotas: { episodes_in_flight: q_episodes_in_flight, episodes_per_day: q_episodes_per_day, schedules: q_schedules, usd_per_day: q_usd_per_day } };
};

/**
 * Writes the run if its episodes fit the tenant's quotas (and, when `budgetless`, only if the tenant has no daily
 * USD budget): `refusal` null when written, else why not; with the tenant's daily USD budget read in the same call
 * (the run's episodes are held to it, or it refused the run), sparing a launch a round trip.
 */
export const insertRunWithinQuotas = async (d1: D1Database, row: RunRow, nowMs: number, budgetless = false): Promise<{ refusal: QuotaSnapshot | null; usdPerDay: number | null }> => {
  const fits = runQuotasFit(row.tenantId, dayStart(nowMs), sql`${row.total}`);
  const condition = budgetless ? sql`${quota(row.tenantId, 'usd_per_day')} IS NULL AND ${allFit(fits)}` : allFit(fits);
  const [, refusal, budget] = await d1.batch<RefusalRow | { usd_per_day: number | null }>([
    statement(d1, insertIf(runs, row, condition)),
    statement(d1, refusalIfNotWritten(row.tenantId, dayStart(nowMs), fits, sql`${row.total}`, sql`SELECT 1 FROM runs WHERE id = ${row.id}`)),
    statement(d1, sql`SELECT ${quota(row.tenantId, 'usd_per_day')} AS usd_per_day`),
  ]);
  const usdPerDay = (budget!.results[0] as { usd_per_day: number | null } | undefined)?.usd_per_day ?? null;
  return { refusal: refusalOf(refusal!.results[0] as RefusalRow | undefined), usdPerDay };
};

/** Writes the schedule if the tenant keeps fewer than its quota and `maxSchedules`; null when written, else why not. */
export const insertScheduleWithinQuota = async (d1: D1Database, row: ScheduleRow, nowMs: number, maxSchedules: number): Promise<QuotaSnapshot | null> => {
  const fits = scheduleQuotaFits(row.tenantId, maxSchedules);
  const [, refusal] = await d1.batch<RefusalRow>([
    statement(d1, insertIf(schedules, row, allFit(fits))),
    statement(d1, refusalIfNotWritten(row.tenantId, dayStart(nowMs), fits, sql`1`, sql`SELECT 1 FROM schedules WHERE id = ${row.id}`)),
  ]);
  return refusalOf(refusal!.results[0]);
};

/**
 * Re-runs the run's infrastructure errors if they fit the tenant's quotas, in one transaction: records the rerun
 * (today's usage), puts the run back in flight and removes the errors' simulations. Returns the episodes to
 * launch again, or why none (`quota` null: there was no infrastructure error).
 */
export const takeInfraErrorsWithinQuotas = async (
  d1: D1Database,
  run: { readonly id: string; readonly tenantId: string },
  nowMs: number,
): Promise<{ episodes: Array<{ task_id: string; trial: number }> } | QuotaSnapshot> => {
  const now = new Date(nowMs).toISOString();
  const id = crypto.randomUUID();
  const errors = sql`FROM simulations WHERE run_id = ${run.id} AND termination_reason = 'infrastructure_error'`;
  const asked = sql`(SELECT count(*) ${errors})`;
  const fits = runQuotasFit(run.tenantId, dayStart(nowMs), asked);
  const written = sql`SELECT 1 FROM reruns WHERE id = ${id}`;
  // Infrastructure-error records carry no messages: their simulation rows are all there is to remove.
  const [, , taken, refusal] = await d1.batch([
    statement(d1, sql`INSERT INTO ${reruns} (id, tenant_id, run_id, episodes, created_at)
      SELECT ${id}, ${run.tenantId}, ${run.id}, ${asked}, ${now} WHERE ${asked} > 0 AND ${allFit(fits)}`),
    statement(d1, sql`UPDATE runs SET status = 'running', updated_at = ${now} WHERE id = ${run.id} AND EXISTS (${written})`),
    statement(d1, sql`DELETE ${errors} AND EXISTS (${written}) RETURNING task_id, trial`),
    statement(d1, refusalIfNotWritten(run.tenantId, dayStart(nowMs), fits, asked, written)),
  ]);
  return refusalOf(refusal!.results[0] as RefusalRow | undefined) ?? { episodes: taken!.results as Array<{ task_id: string; trial: number }> };
};

/**
 * Adds a round of `asked` episodes to the run (its total grows, its configuration gains the trial) if they fit the
 * tenant's quotas, in one statement; null when added, else why not.
 */
export const addRoundWithinQuotas = async (
  d1: D1Database,
  run: { readonly id: string; readonly tenantId: string },
  configText: string,
  asked: number,
  nowMs: number,
): Promise<QuotaSnapshot | null> => {
  const fits = runQuotasFit(run.tenantId, dayStart(nowMs), sql`${asked}`);
  const [, refusal] = await d1.batch<RefusalRow>([
    statement(d1, sql`UPDATE ${runs} SET total = total + ${asked}, config = ${configText}, updated_at = ${new Date(nowMs).toISOString()}
      WHERE id = ${run.id} AND status = 'running' AND ${allFit(fits)}`),
    statement(d1, refusalIfNotWritten(run.tenantId, dayStart(nowMs), fits, sql`${asked}`, sql`SELECT 1 FROM runs WHERE id = ${run.id} AND config = ${configText}`)),
  ]);
  return refusalOf(refusal!.results[0]);
};
