// Starting a run from a launch body, and cancelling one: the one path behind POST /v1/runs (and its cancel) and
// the A2A evaluation message (and CancelTask). A start checks the agent endpoint, seals its headers, honours an
// idempotency key, selects the episodes and launches them.
import type { z } from 'zod';
import { sha256Hex } from '../../core/py/index.ts';
import { RunRoundsSchema } from '../../api/index.ts';
import type { RunLaunchSchema } from '../../api/index.ts';
import { encodeConfig, findRunByIdempotencyKey, setRunStatus } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { launchRun, selectEpisodes } from './launch.ts';
import { ApiError, invalidRequest, quotaExceeded, refused, unpricedModels } from '../api/errors.ts';
import { isQuotaRefusal } from '../tenancy/quotas.ts';
import { isUnpricedRefusal } from '../tenancy/priced-models.ts';
import { agentEndpointIssue, sealAgentEndpoint } from '../agent-endpoint.ts';
import { baselineTaskIds, checkedRounds } from './rounds.ts';
import { seatAgent } from '../a2a/seat.ts';

export type RunLaunch = z.infer<typeof RunLaunchSchema>;

export interface StartOptions {
  readonly tenant: string;
  /** The Worker's origin as the request reached it: where an a2a agent reaches its episodes over MCP. */
  readonly origin: string;
  /** The key in its tenant's namespace, and how the caller named it (`Idempotency-Key k`, for the refusal of a reused key). */
  readonly idempotency?: { readonly key: string; readonly shown: string };
}

const reusedKey = (shown: string): ApiError =>
  new ApiError(422, 'idempotency_key_reused', `${shown} was already used with a different request body`);

/** Launches the run (or finds the one launched before under the same idempotency key); throws an ApiError when refused. */
export const startRequestedRun = async (env: Env, launch: RunLaunch, { tenant, origin, idempotency }: StartOptions): Promise<RunRow> => {
  const { target_ci_width, compare_to, until_resolved, max_trials, ...value } = launch;
  const asked = { target_ci_width, compare_to, until_resolved, max_trials };
  const wantsRounds = Object.values(asked).some((v) => v !== undefined);
  // The episodes a round adds are started by the run, where no seat of the a2a agent would meet them.
  const roundsField = Object.entries(asked).find(([, v]) => v !== undefined)?.[0];
  if (value.agent === 'a2a' && roundsField !== undefined) throw invalidRequest([{ path: roundsField, message: 'A run of the a2a agent has a fixed size: leave out the rounds fields' }]);
  const endpointIssue = agentEndpointIssue(env, value);
  if (endpointIssue) throw invalidRequest([endpointIssue]);
  // The endpoint's header values are secrets: sealed apart, and not part of the request hash either.
  const sealed = await sealAgentEndpoint(env, tenant, value);
  const { agentHeadersCiphertext } = sealed;
  // A comparison plays the baseline's tasks unless the request names its own.
  const baselineTasks = compare_to === undefined || value.task_ids != null ? null : await baselineTaskIds(env, tenant, compare_to, sealed.config.domain);
  const config = baselineTasks === null ? sealed.config : { ...sealed.config, task_ids: baselineTasks };
  const key = idempotency?.key;
  const requestHash = sha256Hex(encodeConfig(config) + (wantsRounds ? JSON.stringify(asked) : ''));
  const existing = key === undefined ? null : await findRunByIdempotencyKey(env.DB, key);
  if (existing && existing.requestHash !== requestHash) throw reusedKey(idempotency!.shown);
  const selection = await selectEpisodes(env, config);
  if (!selection.ok) throw refused(selection);
  const rounds = wantsRounds ? await checkedRounds(env, tenant, config, RunRoundsSchema.parse(asked), selection.episodes.length) : undefined;
  const launched = await launchRun(env, config, selection.episodes, {
    tenant,
    ...(rounds === undefined ? {} : { rounds }),
    ...(key === undefined ? {} : { idempotencyKey: key }),
    requestHash,
    agentHeadersCiphertext,
  });
  if (isQuotaRefusal(launched)) throw quotaExceeded(launched);
  if (isUnpricedRefusal(launched)) throw unpricedModels(launched);
  const { run, created } = launched;
  if (run.requestHash !== requestHash) throw reusedKey(idempotency!.shown);
  if (created && config.agent === 'a2a' && run.status === 'running') await seatAgent(env, run, config.agent_endpoint!.url, selection.episodes, origin);
  return run;
};

/** Stops a running run (finished simulations keep their scores); 409 when it already completed or failed. */
export const cancelRun = async (env: Env, row: RunRow): Promise<void> => {
  if (row.status === 'completed' || row.status === 'failed') throw new ApiError(409, 'conflict', `Run ${row.id} already ${row.status}`);
  if (row.status !== 'running') return;
  await env.RUN.getByName(row.id).cancel();
  // A run whose launch was cut short has no episodes for its RunDO to stop: it ends here all the same.
  await setRunStatus(env.DB, row.id, 'cancelled', 'running');
};
