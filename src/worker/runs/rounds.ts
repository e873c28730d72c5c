// A run that adds trials in rounds (POST /v1/runs with `target_ci_width`, or `compare_to` with `until_resolved`):
// its goal checked at launch, and, each time all of its episodes have finished, the next round of one trial per
// task or why it stops (core/runner/rounds.ts decides from the run's simulations in D1). A round is reserved
// against the tenant's quotas like any launch; a refused round ends the run with `quota_exceeded`.
import type { RunRounds, RunStopReason } from '../../api/index.ts';
import { RunRoundsSchema } from '../../api/index.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { roundsVerdict } from '../../core/runner/rounds.ts';
import type { RoundsGoal } from '../../core/runner/rounds.ts';
import { decodeConfig, encodeConfig, findRun, setStopReason } from '../db/runs.ts';
import { runSimulations } from '../db/simulations.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { invalidRequest, notFound, refused } from '../api/errors.ts';
import { limits, runLimitIssues } from '../tenancy/limits.ts';
import { reserveRound } from '../tenancy/quotas.ts';

/** Trials per task a run adding rounds reaches at most when the request names no `max_trials`. */
const DEFAULT_MAX_TRIALS = 10;

export const encodeRounds = (rounds: RunRounds): string => JSON.stringify(rounds);
export const decodeRounds = (text: string | null): RunRounds | null => (text === null ? null : RunRoundsSchema.parse(JSON.parse(text)));

/**
 * The goal as the run keeps it (max_trials filled in), checked: `max_trials` from `num_trials` up and, as if every
 * trial ran, within the operator's limits (400 naming it); `compare_to` a run of the caller's (404 otherwise) in the
 * same domain. `episodes` is what the run's first trials select.
 */
export const checkedRounds = async (env: Env, tenant: string, config: RunConfig, rounds: RunRounds, episodes: number): Promise<RunRounds> => {
  const maxTrials = rounds.max_trials ?? Math.max(DEFAULT_MAX_TRIALS, config.num_trials);
  if (maxTrials < config.num_trials) throw invalidRequest([{ path: 'max_trials', message: `${maxTrials} is below num_trials (${config.num_trials})` }]);
  const tasks = Math.ceil(episodes / config.num_trials);
  const issues = runLimitIssues({ ...config, num_trials: maxTrials }, tasks * maxTrials, limits(env)).filter((i) => i.path === 'num_trials');
  if (issues.length > 0) throw refused({ ok: false, code: 'limit_exceeded', issues: issues.map((i) => ({ ...i, path: 'max_trials' })) });
  if (rounds.compare_to !== undefined) {
    const baseline = await findRun(env.DB, rounds.compare_to, tenant);
    if (baseline === null) throw notFound('Run', rounds.compare_to);
    const { domain } = decodeConfig(baseline.config);
    if (domain !== config.domain) throw invalidRequest([{ path: 'compare_to', message: `Run ${rounds.compare_to} ran domain ${domain}, not ${config.domain}` }]);
  }
  return { ...rounds, max_trials: maxTrials };
};

/**
 * The tasks a comparison's baseline evaluated, in its order: what run B plays when its request names no tasks of its
 * own, so the two pair on every task. Null when the baseline is not the caller's, ran another domain or evaluated
 * nothing yet (checkedRounds then answers why).
 */
export const baselineTaskIds = async (env: Env, tenant: string, runId: string, domain: string): Promise<string[] | null> => {
  const baseline = await findRun(env.DB, runId, tenant);
  if (baseline === null || decodeConfig(baseline.config).domain !== domain) return null;
  const tasks = [...new Set((await runSimulations(env.DB, runId)).map((simulation) => simulation.task_id))];
  return tasks.length > 0 ? tasks : null;
};

const goalOf = async (env: Env, rounds: RunRounds): Promise<RoundsGoal> => {
  const maxTrials = rounds.max_trials ?? DEFAULT_MAX_TRIALS;
  return rounds.compare_to === undefined
    ? { kind: 'ci_width', width: rounds.target_ci_width!, maxTrials }
    : { kind: 'resolved', baseline: await runSimulations(env.DB, rounds.compare_to), maxTrials };
};

export interface Round {
  /** The run's configuration with one more trial. */
  readonly configText: string;
  /** One episode per task, of the new trial. */
  readonly episodes: EpisodeRef[];
}

/**
 * The next round of a run whose episodes (of `tasks`) have all finished, reserved; null when the run adds none
 * (it has no goal, or its goal says stop, or the quotas refuse: the reason is recorded on the run).
 */
export const nextRound = async (env: Env, runId: string, tasks: readonly string[]): Promise<Round | null> => {
  const row = await findRun(env.DB, runId);
  const rounds = row === null || row.status !== 'running' || row.stopReason !== null ? null : decodeRounds(row.rounds);
  if (row === null || rounds === null) return null;
  const config = decodeConfig(row.config);
  const verdict = roundsVerdict(await goalOf(env, rounds), await runSimulations(env.DB, runId), config.num_trials);
  const stop = async (reason: RunStopReason, error?: string): Promise<null> => {
    await setStopReason(env.DB, runId, reason, error);
    return null;
  };
  if (verdict.stop !== null) return stop(verdict.stop);
  const configText = encodeConfig({ ...config, num_trials: config.num_trials + 1 });
  const refusal = await reserveRound(env, row, configText, tasks.length, Date.now());
  if (refusal !== null) return stop('quota_exceeded', refusal);
  return { configText, episodes: tasks.map((task_id) => ({ task_id, trial: config.num_trials })) };
};
