// Forks in the Worker: a group of new episodes, each starting in the state an episode or a finished simulation of
// the caller had at one of its steps, then continuing under its own run's configuration. The source's recorded
// messages are copied (a running episode's from its object, a finished one's from D1) and its databases rebuilt by
// re-running their tool calls (core/episode/fork.ts), once per request; no model is called. The fork group is one
// run of `n` trials of the source's task: each of its episode objects starts in a copy of that state (handed down
// by the run with its launch), and its recorded configuration names the origin (`fork_of`), from which a group
// started without that state rebuilds it; its simulations record the origin in `info.forked_from`.
import type { EpisodeFork } from '../../api/index.ts';
import { forkEpisode } from '../../core/episode/fork.ts';
import type { ForkOutcome } from '../../core/episode/fork.ts';
import type { LiveEpisode } from '../../core/episode/machine.ts';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import type { EpisodeState } from '../../core/schemas/episode.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import { environmentOf } from '../../core/orchestrator/deps.ts';
import { isoTimestamp } from '../../core/orchestrator/clock.ts';
import { baseSlots } from '../../core/environment/environment.ts';
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
import { isRefused } from './refusals.ts';
import type { Refusal } from './refusals.ts';
import { launchEpisodes } from './service.ts';
import type { Idempotency } from './service.ts';

/** What a fork starts from: the source's run, task and trial, and its messages as recorded. */
interface ForkSource {
  readonly kind: 'source';
  readonly run: RunRow;
  readonly task_id: string;
  readonly trial: number;
  readonly messages: readonly Message[];
}

/** A running episode's messages from its object; once it finished, its simulation's from D1. */
const episodeMessages = async (env: Env, handle: EpisodeHandle, run: RunRow): Promise<readonly Message[] | null> => {
  const text = await env.EPISODE.getByName(handle.key).recordedMessages();
  if (text !== null) return parsePyJson(text) as unknown as Message[];
  return (await findEpisodeSimulation(env.DB, run.id, handle.task_id, handle.trial))?.messages ?? null;
};

/** The tenant's source of a fork; another tenant's is as unknown as one that never existed. */
const findSource = async (env: Env, tenant: string, origin: ForkOrigin): Promise<ForkSource | Refusal> => {
  if ('episode_id' in origin) {
    const found = await findEpisode(env, tenant, origin.episode_id);
    if (isRefused(found)) return found;
    const { handle, run } = found;
    const messages = await episodeMessages(env, handle, run);
    // Between its object's reset and its simulation's write to D1, or before it started, an episode has no record.
    if (messages === null) return { kind: 'not_ready', message: `Episode ${origin.episode_id} has no recorded messages yet; fork it again shortly` };
    return { kind: 'source', run, task_id: handle.task_id, trial: handle.trial, messages };
  }
  const unknown: Refusal = { kind: 'not_found', message: `Simulation ${origin.simulation_id} not found` };
  const simulation = await findSimulation(env.DB, origin.simulation_id, tenant);
  const runId = simulation === null ? null : await findSimulationRunId(env.DB, origin.simulation_id, tenant);
  const run = runId === null ? null : await findRun(env.DB, runId, tenant);
  if (simulation === null || run === null) return unknown;
  return { kind: 'source', run, task_id: simulation.task_id, trial: simulation.trial ?? 0, messages: simulation.messages ?? [] };
};

/** The source rebuilt at the origin's step for trial `trial` of a fork group's configuration. */
const rebuild = async (env: Env, tenant: string, config: RunConfig, runId: string, trial: number, source: ForkSource, atStep: number): Promise<ForkOutcome> => {
  const deps = await episodeDeps(env, config, tenant, runId);
  const spec = episodeSpec({ run_id: runId, config, task_id: source.task_id, trial, tenant }, deps.data);
  return forkEpisode({ ...spec, simulationId: crypto.randomUUID() }, deps, source.messages, atStep);
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
  const outcome = await rebuild(env, tenant, configured.config, source.run.id, 0, source, value.at_step);
  if (outcome.kind !== 'forked') return rebuildRefusal(outcome);
  const launched = await launchEpisodes(env, tenant, configured.config, idempotency, {
    agentHeadersCiphertext: source.run.agentHeadersCiphertext,
    forkState: stateText(outcome.live),
  });
  return isRefused(launched) ? launched : { kind: 'forks', run: launched.run, episodes: launched.episodes };
};

/** A fork group's starting state as text: the rebuilt episode's state (its task is the domain's) and the turn it waits for. */
const stateText = (live: LiveEpisode): string => {
  const { task: _task, ...state } = live.state;
  return dumpsPy({ state, pending: live.pending } as unknown as PyInput);
};

/** The episode a fork starts from its group's starting state, with its own simulation id, trial, seed and start. */
const fromStateText = (text: string, context: EpisodeContext): LiveEpisode => {
  const { state, pending } = parsePyJson(text) as unknown as { state: Omit<EpisodeState, 'task'>; pending: TurnRole | null };
  const { spec, deps } = context;
  const nowMs = deps.clock.nowMs();
  const own: EpisodeState = { ...state, task: spec.task, simulation_id: crypto.randomUUID(), trial: spec.trial, seed: spec.seed, start_time: isoTimestamp(nowMs), started_at_ms: nowMs };
  return { state: own, environment: environmentOf(own, deps), persistedSlots: baseSlots(deps.data), pending };
};

/**
 * A fork group's episode at its start: the state its fork request rebuilt, copied; or, for a group started without
 * it, the source's state at the origin's step rebuilt again; or why not, when the source's record is gone or no
 * longer replays.
 */
export const startFork = async (env: Env, context: EpisodeContext, origin: ForkOrigin): Promise<LiveEpisode | string> => {
  const { launch } = context;
  if (launch.fork_state !== undefined) return fromStateText(launch.fork_state, context);
  const source = await findSource(env, launch.tenant, origin);
  if (isRefused(source)) return `The fork's source is not available: ${'message' in source ? source.message : source.kind}`;
  const outcome = await forkEpisode({ ...context.spec, simulationId: crypto.randomUUID() }, context.deps, source.messages, origin.at_step);
  return outcome.kind === 'forked' ? outcome.live : outcome.message;
};

/** A fork's simulation records where it started. */
export const withForkOrigin = (simulation: SimulationRun, origin: ForkOrigin | undefined): SimulationRun =>
  origin === undefined ? simulation : { ...simulation, info: { ...(simulation.info ?? {}), forked_from: origin } };
