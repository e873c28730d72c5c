// /v1/runs: launch a run (202, idempotent with an Idempotency-Key), list, inspect, results, cancel, re-run
// infrastructure errors. Events are in run-events.ts.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH, RunEpisodesQuerySchema, RunLaunchSchema, RunListQuerySchema, RunResultsQuerySchema } from '../../api/index.ts';
import type { Rerun, RunCreated, RunEpisodes, RunList } from '../../api/index.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { decodeConfig, findRun, listRuns } from '../db/runs.ts';
import { seatAgent } from '../a2a/seat.ts';
import type { RunRow } from '../db/runs.ts';
import { runListing, runResultsStream, runUsage, runView } from '../runs/read.ts';
import { cancelRun, startRequestedRun } from '../runs/start.ts';
import { ApiError, invalidRequest, notFound, quotaExceeded, zodIssues } from './errors.ts';
import { pyJson, readBody } from './body.ts';
import { runEvents } from './run-events.ts';
import { isQuotaRefusal, reserveRerun } from '../tenancy/quotas.ts';

/** The caller's run; another tenant's is as unknown as one that never existed. */
const requireRun = async (c: Context<AppEnv>): Promise<RunRow> => {
  const id = c.req.param('id')!;
  const row = await findRun(c.env.DB, id, c.get('caller').tenant);
  if (!row) throw notFound('Run', id);
  return row;
};

/** The caller's Idempotency-Key in its tenant's namespace (scheduled launches use `schedule:`), or undefined. */
export const idempotencyKey = (header: string | undefined, tenant: string): string | undefined => {
  if (header === undefined) return undefined;
  if (header.trim() === '' || header.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw invalidRequest([{ path: IDEMPOTENCY_KEY_HEADER, message: `Give 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, not all blank` }]);
  }
  return `client:${tenant}:${header}`;
};

export const runsApi = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { value: launch } = await readBody(c, RunLaunchSchema);
    const { tenant } = c.get('caller');
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    const key = idempotencyKey(header, tenant);
    const run = await startRequestedRun(c.env, launch, { tenant, origin: new URL(c.req.url).origin, ...(key === undefined ? {} : { idempotency: { key, shown: `Idempotency-Key ${header!}` } }) });
    c.header('Location', `/v1/runs/${run.id}`);
    const body: RunCreated = { run_id: run.id, status: run.status };
    return pyJson(c, body, 202);
  })
  .get('/', async (c) => {
    const query = RunListQuerySchema.safeParse(c.req.query());
    if (!query.success) throw invalidRequest(zodIssues(query.error));
    const { limit, ...filter } = query.data;
    const rows = await listRuns(c.env.DB, c.get('caller').tenant, limit, filter);
    const body: RunList = { runs: await Promise.all(rows.map((row) => runListing(c.env, row))) };
    return pyJson(c, body);
  })
  .get('/:id', async (c) => pyJson(c, await runView(c.env, await requireRun(c))))
  .get('/:id/results', async (c) => {
    const query = RunResultsQuerySchema.safeParse(c.req.query());
    if (!query.success) throw invalidRequest(zodIssues(query.error));
    const stream = await runResultsStream(c.env, await requireRun(c), query.data.messages === 'true');
    return c.body(stream, 200, { 'content-type': 'application/json; charset=utf-8' });
  })
  .get('/:id/usage', async (c) => c.json(await runUsage(c.env, await requireRun(c))))
  .get('/:id/episodes', async (c) => {
    const query = RunEpisodesQuerySchema.safeParse(c.req.query());
    if (!query.success) throw invalidRequest(zodIssues(query.error));
    const row = await requireRun(c);
    const { limit, after, status } = query.data;
    // One more than asked tells whether a next page exists.
    const rows = await c.env.RUN.getByName(row.id).episodes(after, limit + 1, status);
    const page = rows.slice(0, limit);
    const body: RunEpisodes = {
      episodes: page.map((e) => ({ episode_id: episodeIdOf(e.key), task_id: e.task_id, trial: e.trial, status: e.status })),
      next: rows.length > limit ? page[page.length - 1]!.ord : null,
    };
    return pyJson(c, body);
  })
  .get('/:id/events', async (c) => runEvents(c, await requireRun(c)))
  .post('/:id/cancel', async (c) => {
    await cancelRun(c.env, await requireRun(c));
    return pyJson(c, await runView(c.env, await requireRun(c)));
  })
  .post('/:id/rerun-infra-errors', async (c) => {
    const row = await requireRun(c);
    if (row.status === 'cancelled' || row.status === 'failed') throw new ApiError(409, 'conflict', `Run ${row.id} was ${row.status}`);
    const episodes = await reserveRerun(c.env, row, Date.now());
    if (isQuotaRefusal(episodes)) throw quotaExceeded(episodes);
    if (episodes.length > 0) await c.env.RUN.getByName(row.id).rerun(episodes);
    const config = decodeConfig(row.config);
    if (episodes.length > 0 && config.agent === 'a2a') await seatAgent(c.env, row, config.agent_endpoint!.url, episodes, new URL(c.req.url).origin);
    const body: Rerun = { run_id: row.id, status: episodes.length > 0 ? 'running' : row.status, rerun: episodes.length };
    return pyJson(c, body, 202);
  });
