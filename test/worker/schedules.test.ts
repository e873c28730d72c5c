// Scheduled evaluations: CRUD through the API, and the cron trigger launching the due ones.
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker/index.ts';
import { ApiErrorSchema, ScheduleListSchema, ScheduleSchema } from '../../src/core/schemas/api.ts';
import type { Schedule } from '../../src/core/schemas/api.ts';
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

