// Statements built with drizzle's sql template and run as D1 runs them: the quota and spend reservations batch
// them, and their rows are read as D1 gives them.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import type { TenantQuotas } from '../../api/index.ts';

const dialect = new SQLiteAsyncDialect();

export const statement = (d1: D1Database, query: SQL): D1PreparedStatement => {
  const built = dialect.sqlToQuery(query);
  return d1.prepare(built.sql).bind(...built.params);
};

/** 00:00 UTC of the day of `nowMs`, as stored timestamps are written: when daily quotas start afresh. */
export const dayStart = (nowMs: number): string => `${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00.000Z`;

/** The tenant's quota as the statement runs (NULL, unlimited, when the tenant has none). */
export const quotaOf = (tenant: string, name: keyof TenantQuotas): SQL => sql`(SELECT ${sql.identifier(name)} FROM tenant_quotas WHERE tenant_id = ${tenant})`;
