// Scheduled evaluations in D1, and their API view.
import { drizzle } from 'drizzle-orm/d1';
import { and, asc, eq, lte } from 'drizzle-orm';
import type { Schedule } from '../../api/index.ts';
import { decodeConfig } from './runs.ts';
import { schedules } from './schema.ts';

export type ScheduleRow = typeof schedules.$inferSelect;

export const scheduleView = (row: ScheduleRow): Schedule => ({
  id: row.id,
  name: row.name,
  interval_minutes: row.intervalMinutes,
  enabled: row.enabled,
  run: decodeConfig(row.runConfig),
  next_run_at: row.nextRunAt,
  last_run_at: row.lastRunAt,
  last_run_id: row.lastRunId,
  last_error: row.lastError,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const insertSchedule = async (d1: D1Database, row: typeof schedules.$inferInsert): Promise<void> => {
  await drizzle(d1).insert(schedules).values(row);
};

export const findSchedule = async (d1: D1Database, id: string, tenant: string): Promise<ScheduleRow | null> =>
  (await drizzle(d1).select().from(schedules).where(and(eq(schedules.id, id), eq(schedules.tenantId, tenant))).get()) ?? null;

export const listSchedules = (d1: D1Database, tenant: string): Promise<ScheduleRow[]> =>
  drizzle(d1).select().from(schedules).where(eq(schedules.tenantId, tenant)).orderBy(asc(schedules.createdAt), asc(schedules.id));

export const updateSchedule = async (d1: D1Database, id: string, changes: Partial<ScheduleRow>): Promise<void> => {
  await drizzle(d1).update(schedules).set(changes).where(eq(schedules.id, id));
};

/** Returns whether a schedule was deleted. */
export const deleteSchedule = async (d1: D1Database, id: string, tenant: string): Promise<boolean> =>
  (await drizzle(d1).delete(schedules).where(and(eq(schedules.id, id), eq(schedules.tenantId, tenant))).returning({ id: schedules.id })).length === 1;

/** Enabled schedules whose next run is due at `nowIso`, the longest overdue first, at most `limit` of them. */
export const dueSchedules = (d1: D1Database, nowIso: string, limit: number): Promise<ScheduleRow[]> =>
  drizzle(d1)
    .select()
    .from(schedules)
    .where(and(eq(schedules.enabled, true), lte(schedules.nextRunAt, nowIso)))
    .orderBy(asc(schedules.nextRunAt))
    .limit(limit);
