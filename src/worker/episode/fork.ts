// Forks in the Worker: a group of new episodes, each starting in the state an episode or a finished simulation of
// the caller had at one of its steps, then continuing under its own run's configuration; no model is called. A
// running episode's stored rows up to that step are copied as they are; a finished episode's or a simulation's
// messages (from D1) are replayed once per request through the domain's tools (core/episode/fork.ts) into rows of
// the same form. The fork group is one run of `n` trials of the source's task: the run hands those rows to each of
// its episode objects with its launch, and its recorded configuration names the origin (`fork_of`), from which an
// episode started without them finds them again; its simulations record the origin in `info.forked_from`.
import type { EpisodeFork } from '../../api/index.ts';
import { forkEpisode } from '../../core/episode/fork.ts';
import type { ForkOutcome } from '../../core/episode/fork.ts';
import { parsePyJson } from '../../core/py/index.ts';
import type { EpisodeState } from '../../core/schemas/episode.ts';
import { isoTimestamp } from '../../core/orchestrator/clock.ts';
import { storedRowsOf } from './store.ts';
import type { StoredRows } from './store.ts';
import type { Message } from '../../core/schemas/message.ts';
import { RecordedRunConfigSchema } from '../../core/schemas/run-config.ts';
import type { ForkOrigin, RunConfig } from '../../core/schemas/run-config.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { zodIssues } from '../../core/schemas/issues.ts';
import { decodeConfig, findRun } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { findEpisodeSimulation, findSimulation, findSimulationRunId } from '../db/simulations.ts';
import { limits } from '../tenancy/limits.ts';
import type { EpisodeContext } from './context.ts';
import { episodeDeps } from './deps.ts';
import { findEpisode } from './handle.ts';
import type { EpisodeHandle } from './handle.ts';
import { episodeSpec } from './launch.ts';
import { isRefused, refusalMessage } from './refusals.ts';
import type { Refusal } from './refusals.ts';
import { launchEpisodes } from './service.ts';
import type { Idempotency } from './service.ts';

/** What a fork starts from: the source's run, task and trial, and its stored rows at the step, or its messages as recorded. */
interface ForkSource {
  readonly kind: 'source';
  readonly run: RunRow;
  readonly task_id: string;
  readonly trial: number;
  readonly start: { readonly rows: StoredRows } | { readonly messages: readonly Message[] };
}

const beyond = (atStep: number, steps: number): Refusal => ({ kind: 'invalid', issues: [{ path: 'at_step', message: `at_step ${atStep} is beyond the episode: it has steps 0 to ${steps}` }] });

/**
 * A running episode's stored rows at the step, from its object; without them (stored before steps were counted),
 * its messages; once it finished, its simulation's messages from D1.
 */
const episodeStart = async (env: Env, handle: EpisodeHandle, run: RunRow, atStep: number): Promise<ForkSource['start'] | Refusal | null> => {
  const object = env.EPISODE.getByName(handle.key);
  const stored = await object.forkRows(atStep);
  if (stored?.kind === 'beyond') return beyond(atStep, stored.steps);
  if (stored?.kind === 'rows') return { rows: stored.rows };
  const text = await object.recordedMessages();
  if (text !== null) return { messages: parsePyJson(text) as unknown as Message[] };
  const simulation = await findEpisodeSimulation(env.DB, run.id, handle.task_id, handle.trial);
  return simulation === null ? null : { messages: simulation.messages ?? [] };
};

/** The tenant's source of a fork; another tenant's is as unknown as one that never existed. */
const findSource = async (env: Env, tenant: string, origin: ForkOrigin): Promise<ForkSource | Refusal> => {
  if ('episode_id' in origin) {
    const found = await findEpisode(env, tenant, origin.episode_id);
    if (isRefused(found)) return found;
    const { handle, run } = found;
    const start = await episodeStart(env, handle, run, origin.at_step);
    // Between its object's reset and its simulation's write to D1, or before it started, an episode has no record.
    if (start === null) return { kind: 'not_ready', message: `Episode ${origin.episode_id} has no recorded messages yet; fork it again shortly` };
    if ('kind' in start) return start;
    return { kind: 'source', run, task_id: handle.task_id, trial: handle.trial, start };
  }
  const unknown: Refusal = { kind: 'not_found', message: `Simulation ${origin.simulation_id} not found` };
  const simulation = await findSimulation(env.DB, origin.simulation_id, tenant);
  const runId = simulation === null ? null : await findSimulationRunId(env.DB, origin.simulation_id, tenant);
  const run = runId === null ? null : await findRun(env.DB, runId, tenant);
  if (simulation === null || run === null) return unknown;
  return { kind: 'source', run, task_id: simulation.task_id, trial: simulation.trial ?? 0, start: { messages: simulation.messages ?? [] } };
};

/** The source's rows at the origin's step: stored ones as they are, else rebuilt from its messages by replay. */
const startRows = async (context: () => Promise<Pick<EpisodeContext, 'spec' | 'deps'>>, source: ForkSource, atStep: number): Promise<StoredRows | Exclude<ForkOutcome, { kind: 'forked' }>> => {
  if ('rows' in source.start) return source.start.rows;
  const { spec, deps } = await context();
  const outcome = await forkEpisode({ ...spec, simulationId: crypto.randomUUID() }, deps, source.start.messages, atStep);
  return outcome.kind === 'forked' ? storedRowsOf(outcome.live, atStep) : outcome;
};

/** The engine's spec and dependencies of trial `trial` of a fork group's configuration, before its run exists. */
const groupContext = async (env: Env, tenant: string, config: RunConfig, runId: string, task_id: string, trial: number): Promise<Pick<EpisodeContext, 'spec' | 'deps'>> => {
  const deps = await episodeDeps(env, config, tenant, runId);
  return { deps, spec: episodeSpec({ run_id: runId, config, task_id, trial, tenant }, deps.data) };
};

/** Why a rebuild was refused, as the service's refusal: a step beyond the episode is the request's fault. */
const rebuildRefusal = (outcome: Exclude<ForkOutcome, { kind: 'forked' }>): Refusal =>
  outcome.kind === 'beyond_episode' ? { kind: 'invalid', issues: [{ path: 'at_step', message: outcome.message }] } : { kind: 'conflict', message: outcome.message };

/** The fork group's configuration: the source run's, for its task only, `n` trials, with the request's changes. */
const forkConfig = (env: Env, source: ForkSource, origin: ForkOrigin, value: EpisodeFork): { kind: 'config'; config: RunConfig } | Refusal => {
  const { at_step: _atStep, n, ...changes } = value;
  const parsed = RecordedRunConfigSchema.safeParse({
    ...decodeConfig(source.run.config),
    task_split_name: null,
    task_ids: [source.task_id],
    num_tasks: null,
    num_trials: n,
    skip_episodes: [],
    max_concurrency: Math.min(n, limits(env).LIMIT_MAX_CONCURRENCY),
    ...changes,
    fork_of: origin,
  });
  return parsed.success ? { kind: 'config', config: parsed.data } : { kind: 'invalid', issues: zodIssues(parsed.error) };
};

/** The forks opened: their run and episodes, started in the source's state at the step asked for. */
export interface Forks {
  readonly kind: 'forks';
  readonly run: RunRow;
  readonly episodes: readonly EpisodeHandle[];
}

/**
 * Opens `value.n` forks of the tenant's episode or simulation at `value.at_step`: refused when the source is not
 * the tenant's (not found), the step is beyond it (invalid, naming `at_step`), or its record does not replay
 * (conflict, naming the step); counted in the tenant's episode quotas like any new episodes.
 */
export const openForks = async (env: Env, tenant: string, origin: ForkOrigin, value: EpisodeFork, idempotency?: Idempotency): Promise<Forks | Refusal> => {
  const source = await findSource(env, tenant, origin);
  if (isRefused(source)) return source;
  const configured = forkConfig(env, source, origin, value);
  if (isRefused(configured)) return configured;
  const rows = await startRows(() => groupContext(env, tenant, configured.config, source.run.id, source.task_id, 0), source, value.at_step);
  if ('kind' in rows) return rebuildRefusal(rows);
  const launched = await launchEpisodes(env, tenant, configured.config, idempotency, {
    agentHeadersCiphertext: source.run.agentHeadersCiphertext,
    forkState: JSON.stringify(rows),
  });
  return isRefused(launched) ? launched : { kind: 'forks', run: launched.run, episodes: launched.episodes };
};

/**
 * A fork's starting rows when its launch did not bring them (an attempt started again, a group restarted without
 * them): the source's rows at the origin's step, found or rebuilt again; or why not, when the source's record is
 * gone or no longer replays.
 */
export const forkStartRows = async (env: Env, context: EpisodeContext, origin: ForkOrigin): Promise<StoredRows | string> => {
  const { launch } = context;
  const source = await findSource(env, launch.tenant, origin);
  if (isRefused(source)) return `The fork's source is not available: ${refusalMessage(source)}`;
  const rows = await startRows(async () => context, source, origin.at_step);
  return 'kind' in rows ? rows.message : rows;
};

/** What a fork's state has of its own: its simulation id, trial and seed, and its start. */
export const forkOwnFields = ({ spec, deps }: EpisodeContext): Pick<EpisodeState, 'simulation_id' | 'trial' | 'seed' | 'start_time' | 'started_at_ms'> => {
  const nowMs = deps.clock.nowMs();
  return { simulation_id: crypto.randomUUID(), trial: spec.trial, seed: spec.seed, start_time: isoTimestamp(nowMs), started_at_ms: nowMs };
};

/** A fork's simulation records where it started. */
export const withForkOrigin = (simulation: SimulationRun, origin: ForkOrigin | undefined): SimulationRun =>
  origin === undefined ? simulation : { ...simulation, info: { ...(simulation.info ?? {}), forked_from: origin } };
