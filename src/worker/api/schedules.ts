// /v1/schedules: CRUD of scheduled evaluations (the cron trigger launches the due ones). A new schedule
// is due at once, then every `interval_minutes`.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { ScheduleCreateSchema, ScheduleUpdateSchema } from '../../api/index.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { encodeConfig } from '../db/runs.ts';
import { deleteSchedule, findSchedule, listSchedules, scheduleView, updateSchedule } from '../db/schedules.ts';
import type { ScheduleRow } from '../db/schedules.ts';
import { selectEpisodes } from '../runs/launch.ts';
import { invalidRequest, notFound, quotaExceeded, refused } from './errors.ts';
import { agentEndpointIssue, sealAgentEndpoint } from '../agent-endpoint.ts';
import { reserveSchedule } from '../tenancy/quotas.ts';
import { pyJson, readBody } from './body.ts';

/** The caller's schedule; another tenant's is as unknown as one that never existed. */
const requireSchedule = async (c: Context<AppEnv>): Promise<ScheduleRow> => {
  const id = c.req.param('id')!;
  const row = await findSchedule(c.env.DB, id, c.get('caller').tenant);
  if (!row) throw notFound('Schedule', id);
  return row;
};

/** A schedule's run must select tasks now, as POST /v1/runs would check. */
const checkRun = async (env: Env, run: RunConfig): Promise<void> => {
  const issue = agentEndpointIssue(env, run, 'run.');
  if (issue) throw invalidRequest([issue]);
  const selection = await selectEpisodes(env, run);
  if (!selection.ok) throw refused(selection, 'run.');
};

export const schedulesApi = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { value } = await readBody(c, ScheduleCreateSchema);
    await checkRun(c.env, value.run);
    const { config, agentHeadersCiphertext } = await sealAgentEndpoint(c.env, c.get('caller').tenant, value.run);
    const now = new Date().toISOString();
    const row: ScheduleRow = {
      id: crypto.randomUUID(),
      tenantId: c.get('caller').tenant,
      name: value.name,
      intervalMinutes: value.interval_minutes,
      enabled: value.enabled,
      runConfig: encodeConfig(config),
      agentHeadersCiphertext,
      nextRunAt: now,
      lastRunAt: null,
      lastRunId: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    const overQuota = await reserveSchedule(c.env, row, Date.parse(now));
    if (overQuota !== null) throw quotaExceeded(overQuota);
    c.header('Location', `/v1/schedules/${row.id}`);
    return pyJson(c, scheduleView(row), 201);
  })
  .get('/', async (c) => pyJson(c, { schedules: (await listSchedules(c.env.DB, c.get('caller').tenant)).map(scheduleView) }))
  .get('/:id', async (c) => pyJson(c, scheduleView(await requireSchedule(c))))
  .patch('/:id', async (c) => {
    const row = await requireSchedule(c);
    const { value } = await readBody(c, ScheduleUpdateSchema);
    if (value.run) await checkRun(c.env, value.run);
    const run = value.run === undefined ? undefined : await sealAgentEndpoint(c.env, row.tenantId, value.run);
    await updateSchedule(c.env.DB, row.id, {
      ...(value.name === undefined ? {} : { name: value.name }),
      ...(value.interval_minutes === undefined ? {} : { intervalMinutes: value.interval_minutes }),
      ...(value.enabled === undefined ? {} : { enabled: value.enabled }),
      ...(run === undefined ? {} : { runConfig: encodeConfig(run.config), agentHeadersCiphertext: run.agentHeadersCiphertext }),
      updatedAt: new Date().toISOString(),
    });
    return pyJson(c, scheduleView(await requireSchedule(c)));
  })
  .delete('/:id', async (c) => {
    if (!(await deleteSchedule(c.env.DB, c.req.param('id'), c.get('caller').tenant))) throw notFound('Schedule', c.req.param('id'));
    return c.body(null, 204);
  });
