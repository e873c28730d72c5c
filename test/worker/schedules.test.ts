// Scheduled evaluations: CRUD through the API, and the cron trigger launching the due ones.
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker/index.ts';
import { ApiErrorSchema, ApiKeyCreatedSchema, ScheduleListSchema, ScheduleSchema } from '../../src/api/index.ts';
import { LIMIT_DEFAULTS } from '../../src/worker/tenancy/limits.ts';
import { SCHEDULES_PER_TICK } from '../../src/worker/runs/scheduled.ts';
import type { Schedule } from '../../src/api/index.ts';
import { call, pyBody, waitForRun } from './support/api.ts';
import { scriptedRun } from './support/script.ts';

const create = async (overrides: Record<string, unknown> = {}): Promise<Schedule> => {
  const response = await call('/v1/schedules', {
    body: { name: 'nightly mock', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'] }), ...overrides },
  });
  expect(response.status).toBe(201);
  return ScheduleSchema.parse(await pyBody(response));
};

const getSchedule = async (id: string): Promise<Schedule> => ScheduleSchema.parse(await pyBody(await call(`/v1/schedules/${id}`)));

const trigger = async (scheduledTime: number): Promise<void> => {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: '* * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
};

const runsOf = async (scheduleId: string): Promise<string[]> =>
  (await env.DB.prepare('SELECT id FROM runs WHERE schedule_id = ?').bind(scheduleId).all<{ id: string }>()).results.map((r) => r.id);

describe('schedules API', () => {
  it('creates, lists, reads, updates and deletes a schedule', async () => {
    const schedule = await create();
    expect(schedule).toMatchObject({ name: 'nightly mock', interval_minutes: 60, enabled: true, last_run_id: null });
    expect(schedule.run.task_ids).toEqual(['create_task_1']);
    const list = ScheduleListSchema.parse(await pyBody(await call('/v1/schedules')));
    expect(list.schedules.map((s) => s.id)).toContain(schedule.id);

    const patched = await call(`/v1/schedules/${schedule.id}`, { method: 'PATCH', body: { enabled: false, interval_minutes: 5 } });
    expect(patched.status).toBe(200);
    expect(ScheduleSchema.parse(await pyBody(patched))).toMatchObject({ enabled: false, interval_minutes: 5, name: 'nightly mock' });

    expect((await call(`/v1/schedules/${schedule.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/v1/schedules/${schedule.id}`)).status).toBe(404);
  });

  it('refuses invalid schedules with 400 naming the field', async () => {
    for (const [body, path] of [
      [{ name: 'x', interval_minutes: 0, run: scriptedRun() }, 'interval_minutes'],
      [{ name: 'x', interval_minutes: 5, run: scriptedRun({ domain: 'nowhere' }) }, 'run.domain'],
      [{ name: '', interval_minutes: 5, run: scriptedRun() }, 'name'],
    ] as const) {
      const response = await call('/v1/schedules', { body });
      expect(response.status).toBe(400);
      expect(ApiErrorSchema.parse(await response.json()).error.issues?.map((i) => i.path)).toContain(path);
    }
    const empty = await call(`/v1/schedules/${(await create()).id}`, { method: 'PATCH', body: {} });
    expect(empty.status).toBe(400);
  });
});

describe('cron trigger', () => {
  it('launches a due schedule once per due time and moves its next run by the interval', async () => {
    const schedule = await create();
    const now = Date.parse(schedule.next_run_at) + 1000;
    await trigger(now);
    const after = await getSchedule(schedule.id);
    expect(after.last_run_id).not.toBeNull();
    expect(after.next_run_at).toBe(new Date(now + 60 * 60_000).toISOString());
    expect(await runsOf(schedule.id)).toEqual([after.last_run_id]);

    const run = await waitForRun(after.last_run_id!);
    expect(run).toMatchObject({ status: 'completed', schedule_id: schedule.id, counts: { done: 1 } });

    await trigger(now + 30_000);
    expect(await runsOf(schedule.id)).toHaveLength(1);
    await trigger(now + 61 * 60_000);
    expect(await runsOf(schedule.id)).toHaveLength(2);
  });

  it('skips disabled schedules', async () => {
    const schedule = await create({ enabled: false });
    await trigger(Date.parse(schedule.next_run_at) + 1000);
    expect(await runsOf(schedule.id)).toEqual([]);
    expect((await getSchedule(schedule.id)).last_run_id).toBeNull();
  });
});

/** Writes `n` schedules of `tenant` straight to D1, due at `nextRunAt`, with `runConfig` as stored. */
const storeSchedules = async (tenant: string, n: number, nextRunAt: string, runConfig = '{}'): Promise<string[]> => {
  const now = new Date().toISOString();
  const ids = Array.from({ length: n }, (_, i) => `${tenant}-${i}`);
  await env.DB.batch(ids.map((id) => env.DB.prepare(
    `INSERT INTO schedules (id, tenant_id, name, interval_minutes, enabled, run_config, next_run_at, created_at, updated_at) VALUES (?, ?, 'stored', 60, 1, ?, ?, ?, ?)`,
  ).bind(id, tenant, runConfig, nextRunAt, now, now)));
  return ids;
};

describe('schedule limits', () => {
  it('a tenant without a schedules quota keeps at most LIMIT_MAX_SCHEDULES: one more → 429 naming the quota', async () => {
    const key = ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant: 'sched-cap', name: 'cap' } }))).key;
    await storeSchedules('sched-cap', LIMIT_DEFAULTS.LIMIT_MAX_SCHEDULES, '2999-01-01T00:00:00.000Z');
    const response = await call('/v1/schedules', {
      body: { name: 'one more', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'] }) },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(429);
    expect(ApiErrorSchema.parse(await response.json()).error.message).toContain(`Quota schedules reached: ${LIMIT_DEFAULTS.LIMIT_MAX_SCHEDULES} schedules kept, ${LIMIT_DEFAULTS.LIMIT_MAX_SCHEDULES} allowed`);
    expect((await env.DB.prepare(`SELECT count(*) AS n FROM schedules WHERE tenant_id = 'sched-cap'`).first<{ n: number }>())!.n).toBe(LIMIT_DEFAULTS.LIMIT_MAX_SCHEDULES);
  });

  it(`a tick takes at most ${SCHEDULES_PER_TICK} due schedules, the longest overdue first; the next tick the rest`, async () => {
    const ids = await storeSchedules('sched-page', SCHEDULES_PER_TICK + 5, '2000-01-01T00:00:00.000Z');
    const taken = async (): Promise<number> =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM schedules WHERE tenant_id = 'sched-page' AND next_run_at > '2000-01-01T00:00:00.000Z'`).first<{ n: number }>())!.n;
    const now = Date.now();
    await trigger(now);
    expect(await taken()).toBe(SCHEDULES_PER_TICK);
    await trigger(now + 1000);
    expect(await taken()).toBe(ids.length);
  });
});
