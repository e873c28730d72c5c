// /v1/runs: launch a run (202, idempotent with an Idempotency-Key), list, inspect, results, cancel, re-run
// infrastructure errors. Events are in run-events.ts.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { sha256Hex } from '../../core/py/index.ts';
import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH, RunEpisodesQuerySchema, RunLaunchSchema, RunListQuerySchema, RunResultsQuerySchema, RunRoundsSchema } from '../../api/index.ts';
import type { Rerun, RunCreated, RunEpisodes, RunList } from '../../api/index.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { encodeConfig, findRun, findRunByIdempotencyKey, listRuns, setRunStatus } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { launchRun, selectEpisodes } from '../runs/launch.ts';
import { runListing, runResultsStream, runUsage, runView } from '../runs/read.ts';
import { ApiError, invalidRequest, notFound, quotaExceeded, refused, unpricedModels, zodIssues } from './errors.ts';
import { pyJson, readBody } from './body.ts';
import { runEvents } from './run-events.ts';
import { isQuotaRefusal, reserveRerun } from '../tenancy/quotas.ts';
import { isUnpricedRefusal } from '../tenancy/priced-models.ts';
import { agentEndpointIssue, sealAgentEndpoint } from '../agent-endpoint.ts';
import { baselineTaskIds, checkedRounds } from '../runs/rounds.ts';

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

const reusedKey = (key: string): ApiError =>
  new ApiError(422, 'idempotency_key_reused', `Idempotency-Key ${key} was already used with a different request body`);

export const runsApi = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { value: launch } = await readBody(c, RunLaunchSchema);
    const { tenant } = c.get('caller');
    const { target_ci_width, compare_to, until_resolved, max_trials, ...value } = launch;
    const asked = { target_ci_width, compare_to, until_resolved, max_trials };
    const wantsRounds = Object.values(asked).some((v) => v !== undefined);
    const endpointIssue = agentEndpointIssue(c.env, value);
    if (endpointIssue) throw invalidRequest([endpointIssue]);
    // The endpoint's header values are secrets: sealed apart, and not part of the request hash either.
    const sealed = await sealAgentEndpoint(c.env, tenant, value);
    const { agentHeadersCiphertext } = sealed;
    // A comparison plays the baseline's tasks unless the request names its own.
    const baselineTasks = compare_to === undefined || value.task_ids != null ? null : await baselineTaskIds(c.env, tenant, compare_to, sealed.config.domain);
    const config = baselineTasks === null ? sealed.config : { ...sealed.config, task_ids: baselineTasks };
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    const key = idempotencyKey(header, tenant);
    const requestHash = sha256Hex(encodeConfig(config) + (wantsRounds ? JSON.stringify(asked) : ''));
    const existing = key === undefined ? null : await findRunByIdempotencyKey(c.env.DB, key);
    if (existing && existing.requestHash !== requestHash) throw reusedKey(header!);
    const selection = await selectEpisodes(c.env, config);
    if (!selection.ok) throw refused(selection);
    const rounds = wantsRounds ? await checkedRounds(c.env, tenant, config, RunRoundsSchema.parse(asked), selection.episodes.length) : undefined;
    const launched = await launchRun(c.env, config, selection.episodes, {
      tenant,
      ...(rounds === undefined ? {} : { rounds }),
      ...(key === undefined ? {} : { idempotencyKey: key }),
      requestHash,
      agentHeadersCiphertext,
    });
    if (isQuotaRefusal(launched)) throw quotaExceeded(launched);
    if (isUnpricedRefusal(launched)) throw unpricedModels(launched);
    const { run } = launched;
    if (run.requestHash !== requestHash) throw reusedKey(header!);
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
    const row = await requireRun(c);
    if (row.status === 'completed' || row.status === 'failed') throw new ApiError(409, 'conflict', `Run ${row.id} already ${row.status}`);
    if (row.status === 'running') {
      await c.env.RUN.getByName(row.id).cancel();
      // A run whose launch was cut short has no episodes for its RunDO to stop: it ends here all the same.
      await setRunStatus(c.env.DB, row.id, 'cancelled', 'running');
    }
    return pyJson(c, await runView(c.env, await requireRun(c)));
  })
  .post('/:id/rerun-infra-errors', async (c) => {
    const row = await requireRun(c);
    if (row.status === 'cancelled' || row.status === 'failed') throw new ApiError(409, 'conflict', `Run ${row.id} was ${row.status}`);
    const episodes = await reserveRerun(c.env, row, Date.now());
    if (isQuotaRefusal(episodes)) throw quotaExceeded(episodes);
    if (episodes.length > 0) await c.env.RUN.getByName(row.id).rerun(episodes);
    const body: Rerun = { run_id: row.id, status: episodes.length > 0 ? 'running' : row.status, rerun: episodes.length };
    return pyJson(c, body, 202);
  });
