// Launching a run: choose its episodes (tasks × trials, as a batch run would), record it in D1 and hand the
// episodes to its RunDO, which fans them out.
import { domains, taskSetRefusal } from '../../../domains/registry.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { ApiIssue } from '../../api/index.ts';
import { pendingUnits, runTasks } from '../../core/runner/batch.ts';
import { MissingTasksError } from '../../core/tasks.ts';
import { effectiveRetrievalConfig, runRetrievalRefusal } from '../../core/environment/episode-domain.ts';
import { loadDomain } from '../data/domains.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { encodeConfig, setRunStatus } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { limits, runLimitIssues } from '../tenancy/limits.ts';
import type { Refusal } from '../tenancy/limits.ts';
import { findQuotas } from '../db/quotas.ts';
import { apiBaseIssue } from './models.ts';
import { isQuotaRefusal, reserveRun } from '../tenancy/quotas.ts';
import type { QuotaRefusal } from '../tenancy/quotas.ts';
import { unpricedRefusal } from '../tenancy/priced-models.ts';
import type { UnpricedRefusal } from '../tenancy/priced-models.ts';
import { admitObjects } from '../live-objects.ts';
import { encodeRounds } from './rounds.ts';
import type { RunRounds } from '../../api/index.ts';

export type Selection = { readonly ok: true; readonly episodes: EpisodeRef[] } | Refusal;

/** Unknown task ids named in an error: the first few, so a long list is not echoed back whole. */
const ECHOED_TASK_IDS = 10;

const invalid = (path: string, message: string): Refusal => ({ ok: false, code: 'invalid_request', issues: [{ path, message }] });

/** The run's episodes in work-unit order (trial-major), or why the configuration selects none. */
export const selectEpisodes = async (env: Env, config: RunConfig): Promise<Selection> => {
  if (!Object.hasOwn(domains, config.domain)) {
    return invalid('domain', `Unknown domain ${config.domain}. Available: ${Object.keys(domains).join(', ')}`);
  }
  const endpointIssue = apiBaseIssue(env, config);
  if (endpointIssue !== null) return invalid(endpointIssue.path, endpointIssue.message);
  const taskSetIssue = config.task_set_name === null ? null : taskSetRefusal(config.domain, config.task_set_name);
  if (taskSetIssue !== null) return invalid('task_set_name', taskSetIssue);
  const { domain, data } = await loadDomain(env.ASSETS, config.domain);
  const retrieval = runRetrievalRefusal(domain, config);
  if (retrieval !== null) return invalid(retrieval.field, retrieval.message);
  let tasks;
  try {
    tasks = runTasks(config, data);
  } catch (error) {
    if (error instanceof MissingTasksError) {
      const { missing } = error;
      const more = missing.length > ECHOED_TASK_IDS ? ` and ${missing.length - ECHOED_TASK_IDS} more` : '';
      return invalid('task_ids', `Not all tasks were found for task set ${config.task_set_name ?? config.domain}: missing ${missing.slice(0, ECHOED_TASK_IDS).join(', ')}${more}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return invalid(message.includes('split') ? 'task_split_name' : 'task_ids', message);
  }
  if (tasks.length === 0) return invalid('task_ids', 'No tasks to run');
  const issues = runLimitIssues(config, tasks.length * config.num_trials, limits(env));
  if (issues.length > 0) return { ok: false, code: 'limit_exceeded', issues };
  const pending = pendingUnits(config, tasks);
  if (pending.length === 0) return invalid('skip_episodes', 'Every episode is skipped: nothing to run');
  return { ok: true, episodes: pending.map((u) => ({ task_id: u.task.id, trial: u.trial })) };
};

export interface LaunchOptions {
  /** The tenant the run belongs to. */
  readonly tenant: string;
  readonly scheduleId?: string;
  readonly idempotencyKey?: string;
  readonly requestHash?: string;
  /** The agent endpoint's sealed headers (see agent-endpoint.ts). */
  readonly agentHeadersCiphertext?: string | null;
  /** The goal of a run adding trials in rounds (see rounds.ts). */
  readonly rounds?: RunRounds;
  /** A fork group's starting state (see episode/fork.ts). */
  readonly forkState?: string;
}

/**
 * Records the run within the tenant's quotas and starts it; with an Idempotency-Key already used, returns that run
 * instead (created false). Over a quota, or calling a model without a known price under a USD budget, creates
 * nothing and answers the refusal.
 */
export const launchRun = async (
  env: Env,
  config: RunConfig,
  episodes: readonly EpisodeRef[],
  options: LaunchOptions,
): Promise<{ run: RunRow; created: boolean } | QuotaRefusal | UnpricedRefusal> => {
  // Its run object and the episodes it starts at once, before anything is recorded.
  admitObjects(env, 1 + Math.min(episodes.length, config.max_concurrency));
  const now = new Date().toISOString();
  // The run records the retrieval configuration its episodes use, as its results do: the domain's default when
  // the request names none, so listing and filtering by configuration see it.
  const recorded: RunConfig = { ...config, retrieval_config: effectiveRetrievalConfig(domains[config.domain]!, config.retrieval_config) };
  const row: RunRow = {
    id: crypto.randomUUID(),
    tenantId: options.tenant,
    status: 'running',
    config: encodeConfig(recorded),
    total: episodes.length,
    scheduleId: options.scheduleId ?? null,
    idempotencyKey: options.idempotencyKey ?? null,
    requestHash: options.requestHash ?? null,
    error: null,
    agentHeadersCiphertext: options.agentHeadersCiphertext ?? null,
    rounds: options.rounds === undefined ? null : encodeRounds(options.rounds),
    stopReason: null,
    createdAt: now,
    updatedAt: now,
  };
  // A model without a known price cannot be held to a budget: such a run is recorded only for a tenant without one.
  const unpriced = unpricedRefusal(recorded);
  const reserved = await reserveRun(env, row, Date.parse(now), unpriced !== null);
  if (reserved === 'budgeted') return unpriced!;
  if (isQuotaRefusal(reserved)) return reserved;
  const { run, created, usdPerDay } = reserved;
  // Starting is idempotent: a retried request (or the orphan repair) also finishes a launch that was cut short. A
  // run that failed to start stays failed: its episodes were given back to the quotas.
  if (run.status === 'running') await startRun(env, run, episodes, options.forkState, usdPerDay);
  return { run, created };
};

/**
 * Hands the episodes to the run's RunDO; a run that cannot be started ends `failed` with the reason. A fork group
 * restarted without its starting state (the orphan repair) has its episodes rebuild it from the source named in
 * its configuration. `usdPerDay`: the tenant's budget when the caller has just read it, else read here.
 */
export const startRun = async (env: Env, run: RunRow, episodes: readonly EpisodeRef[], forkState?: string, usdPerDay?: number | null): Promise<void> => {
  try {
    const perDay = usdPerDay === undefined ? (await findQuotas(env.DB, run.tenantId)).usd_per_day : usdPerDay;
    const budget = perDay === null ? null : { tenant: run.tenantId, usdPerDay: perDay };
    await env.RUN.getByName(run.id).start(run.id, run.config, episodes, run.tenantId, budget, forkState ?? null);
  } catch (error) {
    await failRun(env, run.id, `The run could not be started: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
};

/** Ends a run that is still `running` as `failed`, keeping why. */
export const failRun = (env: Env, runId: string, reason: string): Promise<void> => setRunStatus(env.DB, runId, 'failed', 'running', reason);
