// The episode service: what a participant played from outside does with an episode — create it (one or a
// batch), join it, step it — whatever carries the request. The step API over HTTP (api/episodes.ts) and OpenEnv
// (openenv/: WebSocket sessions, MCP, its HTTP companions) call these, so an episode behaves the same
// (exactly-once steps, waits, quotas, results in D1) on every transport. Each answers a typed outcome: what was
// done, or a refusal (refusals.ts) that each transport maps to its own wire.
import type { EpisodeCreate, EpisodeCreated, EpisodeStep, EpisodeStepRequest } from '../../api/index.ts';
import { RunRequestSchema } from '../../api/index.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import type { Message } from '../../core/schemas/message.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import { parsePyJson, sha256Hex } from '../../core/py/index.ts';
import { decodeConfig, encodeConfig, findRunByIdempotencyKey } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { launchRun, selectEpisodes } from '../runs/launch.ts';
import type { LaunchOptions } from '../runs/launch.ts';
import { episodeIdOf } from './launch.ts';
import { limits } from '../tenancy/limits.ts';
import { findEpisode, handleIn } from './handle.ts';
import type { EpisodeHandle } from './handle.ts';
import { gradedSimulation, retriedOnReset, settle, waitMs } from './waits.ts';
import type { Settled } from './waits.ts';
import type { ExternalObservation, TurnResponse } from '../../core/episode/turn.ts';
import { failedToolCalls, participantObservation } from '../../core/episode/machine.ts';
import { produceTurns } from '../turns/producer.ts';
import { zodIssues } from '../../core/schemas/issues.ts';
import { isRefused, overloadRefusal } from './refusals.ts';
import { isQuotaRefusal } from '../tenancy/quotas.ts';
import { isUnpricedRefusal } from '../tenancy/priced-models.ts';
import type { Refusal } from './refusals.ts';

/**
 * The episode had nothing to answer with in time (e.g. its simulation not yet in D1): the caller asks again,
 * which is safe for a step (each is applied once).
 */
const noAnswerYet = (episode: EpisodeHandle, step: number): Refusal => ({
  kind: 'not_ready',
  message: `Episode ${episodeIdOf(episode.key)} has no answer to step ${step} yet; send the same step again`,
});

/** The agent's message as a turn result (the engine parses the arguments text as it parses a model's). */
const turnResponseOf = (message: EpisodeStepRequest['message']): TurnResponse => ({
  kind: 'response',
  content: message.content ?? null,
  tool_calls: (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
  usage: null,
  raw_data: null,
});

/** The messages of an observation (the episode object sends them as JSON text). */
export const viewMessages = (view: ExternalObservation): Record<string, unknown>[] => JSON.parse(view.messages) as Record<string, unknown>[];

/** What the caller's participant is given: the agent the policy, the user its instructions; and its tools. */
export const given = (view: ExternalObservation): { policy?: string; instructions?: string; tools?: Record<string, unknown>[] } => {
  if (view.given === null) return {};
  const { policy, instructions, tools } = view.given;
  return {
    ...(view.role === 'agent' ? { policy } : instructions === null ? {} : { instructions }),
    tools: parsePyJson(tools) as unknown as Record<string, unknown>[],
  };
};

const cancelled: Refusal = { kind: 'cancelled', message: 'The episode was cancelled' };

/** A step sent to an episode that is over: only its final step, sent again unchanged, is answered (again). */
const episodeDone = (finalStep: number | null): Refusal => ({
  kind: 'done',
  final_step: finalStep,
  message:
    finalStep === null
      ? 'The episode is done and takes no more steps'
      : `The episode is done: its final step was ${finalStep}, and only that step sent again unchanged is answered`,
});

/** The trajectory role of the caller's own messages. */
export const ownMessageRole = (role: TurnRole): Message['role'] => (role === 'agent' ? 'assistant' : 'user');

/** What the caller saw after its last message: a graded episode ended after the caller's last turn. */
const afterLastOwnMessage = (role: TurnRole, simulation: SimulationRun): Message[] => {
  const messages = simulation.messages ?? [];
  const last = messages.findLastIndex((m) => m.role === ownMessageRole(role));
  return messages.slice(last + 1);
};

/**
 * A step's answer, and the ids of the caller's tool calls in it that failed (its wire messages do not say):
 * `stepped` while the episode runs, `graded` once it is over (its answer carries the reward info).
 */
export interface Stepped {
  readonly kind: 'stepped' | 'graded';
  readonly answer: EpisodeStep;
  readonly failed_tool_calls: readonly string[];
}

/** The answer to step `step - 1`. */
const stepAnswer = (settled: Settled, episode: EpisodeHandle, step: number): Stepped | Refusal => {
  switch (settled.kind) {
    case 'live': {
      const { view } = settled;
      const answer: EpisodeStep = { step: view.step, done: view.done, termination_reason: view.termination_reason as EpisodeStep['termination_reason'], observation: { messages: viewMessages(view) } };
      return { kind: 'stepped', answer, failed_tool_calls: view.failed_tool_calls };
    }
    case 'graded': {
      const seen = afterLastOwnMessage(episode.role, settled.simulation);
      const answer: EpisodeStep = {
        step,
        done: true,
        termination_reason: settled.simulation.termination_reason,
        observation: { messages: participantObservation(episode.role, seen) },
        reward_info: settled.simulation.reward_info as Record<string, unknown> | null,
      };
      return { kind: 'graded', answer, failed_tool_calls: failedToolCalls(episode.role, seen) };
    }
    case 'cancelled':
      return cancelled;
    case 'not_ready':
      return noAnswerYet(episode, step - 1);
  }
};

/** Why a step was not applied. */
const stepRefusal = (reason: string, role: TurnRole, step: number, pending: number | null, message?: string): Refusal => {
  switch (reason) {
    case 'invalid':
      // The reference's gym answers an action it cannot take with this text.
      return { kind: 'invalid', issues: [{ path: 'message', message: `Invalid action with error: ${message ?? ''}` }] };
    case 'conflict':
      return { kind: 'conflict', message: `Step ${step} was already answered with another message` };
    case 'not_external':
      return { kind: 'conflict', message: 'No participant of this episode is played from outside' };
    case 'not_running':
      return { kind: 'conflict', message: 'The episode is over' };
    default:
      return { kind: 'conflict', message: pending === null ? `Step ${step} is not waited for: the episode is not waiting for the ${role}` : `Step ${step} is not waited for: the episode waits for step ${pending}` };
  }
};

/** The one-run configuration of episodes created for the caller's participant on these tasks. */
export const episodesConfig = (env: Env, value: Omit<EpisodeCreate, 'task_id'>, taskIds: readonly string[], numTrials = 1): { kind: 'config'; config: RunConfig } | Refusal => {
  const playsUser = value.role === 'user';
  const parsed = RunRequestSchema.safeParse({
    domain: value.domain,
    task_split_name: null,
    task_ids: taskIds,
    num_trials: numTrials,
    agent: playsUser ? 'llm_agent' : value.solo ? 'external_solo' : 'external',
    user: playsUser ? 'external_user' : value.solo ? 'dummy_user' : 'user_simulator',
    ...(value.llm_user === undefined ? {} : { llm_user: value.llm_user }),
    ...(value.llm_args_user === undefined ? {} : { llm_args_user: value.llm_args_user }),
    ...(value.llm_agent === undefined ? {} : { llm_agent: value.llm_agent }),
    ...(value.llm_args_agent === undefined ? {} : { llm_args_agent: value.llm_args_agent }),
    ...(value.llm_judge === undefined ? {} : { llm_judge: value.llm_judge }),
    ...(value.seed === undefined ? {} : { seed: value.seed }),
    ...(value.retrieval_config === undefined ? {} : { retrieval_config: value.retrieval_config }),
    ...(value.retrieval_config_kwargs === undefined ? {} : { retrieval_config_kwargs: value.retrieval_config_kwargs }),
    max_steps: value.max_steps,
    max_errors: value.max_errors,
    // Every episode of a batch waits for its caller at once, as far as the operator allows.
    max_concurrency: Math.min(taskIds.length * numTrials, limits(env).LIMIT_MAX_CONCURRENCY),
  });
  return parsed.success ? { kind: 'config', config: parsed.data } : { kind: 'invalid', issues: zodIssues(parsed.error) };
};

/** A launch's Idempotency-Key: as the tenant's namespace holds it, and as the caller sent it. */
export interface Idempotency {
  readonly key: string;
  readonly header: string;
}

const reusedKey = (key: string): Refusal => ({ kind: 'key_reused', message: `Idempotency-Key ${key} was already used with a different request body` });

/**
 * Records and starts the run of the caller's episodes, every creation's one way through quotas: launchRun reserves
 * all of them at once with the run row (a batch over a quota is refused whole, creating nothing), and a repeated
 * Idempotency-Key (already in the tenant's namespace) answers with its run, reserving nothing again.
 */
export const launchEpisodes = async (
  env: Env,
  tenant: string,
  config: RunConfig,
  idempotency?: Idempotency,
  /** A fork group's: its source run's sealed agent-endpoint headers and its starting state. */
  fork: Pick<LaunchOptions, 'agentHeadersCiphertext' | 'forkState'> = {},
): Promise<{ kind: 'launched'; run: RunRow; episodes: EpisodeHandle[] } | Refusal> => {
  const requestHash = sha256Hex(encodeConfig(config));
  const existing = idempotency === undefined ? null : await findRunByIdempotencyKey(env.DB, idempotency.key);
  if (existing && existing.requestHash !== requestHash) return reusedKey(idempotency!.header);
  const selection = await selectEpisodes(env, config);
  if (!selection.ok) return { kind: 'invalid', issues: selection.issues, limit: selection.code === 'limit_exceeded' };
  let launched: Awaited<ReturnType<typeof launchRun>>;
  try {
    launched = await launchRun(env, config, selection.episodes, { tenant, requestHash, ...fork, ...(idempotency === undefined ? {} : { idempotencyKey: idempotency.key }) });
  } catch (error) {
    const refusal = overloadRefusal(error);
    if (refusal === null) throw error;
    return refusal;
  }
  if (isQuotaRefusal(launched)) return launched;
  if (isUnpricedRefusal(launched)) return { kind: 'invalid', issues: launched.issues };
  const { run } = launched;
  if (run.requestHash !== requestHash) return reusedKey(idempotency!.header);
  return { kind: 'launched', run, episodes: selection.episodes.map(handleIn(run, decodeConfig(run.config))) };
};

/** An episode the caller joins (or created): the handle it steps by and what its participant sees first. */
export interface Opened {
  readonly kind: 'opened';
  readonly handle: EpisodeHandle;
  readonly opening: EpisodeCreated;
}

/** What the caller's participant sees of an episode from its start: the messages so far, what it is given. */
export const openingOf = async (env: Env, episode: EpisodeHandle): Promise<Opened | Refusal> => {
  const settled = await settle(env, episode, 0, true);
  const id = episodeIdOf(episode.key);
  if (settled.kind === 'cancelled') return cancelled;
  if (settled.kind === 'not_ready') {
    return { kind: 'not_ready', message: `Episode ${id} was created but has not started yet; read it later at its Location`, location: `/v1/episodes/${id}` };
  }
  const opening: EpisodeCreated =
    settled.kind === 'live'
      ? { episode_id: id, run_id: episode.run_id, step: settled.view.step, done: settled.view.done, observation: { ...given(settled.view), messages: viewMessages(settled.view) } }
      : { episode_id: id, run_id: episode.run_id, step: 0, done: true, observation: { messages: participantObservation(episode.role, settled.simulation.messages ?? []) } };
  return { kind: 'opened', handle: episode, opening };
};

/** The caller's tools in an episode that runs (OpenAI function format), its policy (as agent), and the turn the episode waits for. */
export const toolsOf = async (env: Env, episode: EpisodeHandle): Promise<{ kind: 'tools'; step: number; done: boolean; tools: Record<string, unknown>[]; policy?: string } | Refusal> => {
  const view = await env.EPISODE.getByName(episode.key).observe(Number.MAX_SAFE_INTEGER, true).catch(retriedOnReset);
  if (view === null || view === undefined) return { kind: 'conflict', message: `Episode ${episodeIdOf(episode.key)} is not running: its tools are listed while it runs` };
  const { tools, policy } = given(view);
  return { kind: 'tools', step: view.step, done: view.done, tools: tools ?? [], ...(policy === undefined ? {} : { policy }) };
};

/** Creates one episode for the caller's participant; its opening is what the participant sees first. */
export const createEpisode = async (env: Env, tenant: string, value: EpisodeCreate): Promise<Opened | Refusal> => {
  const configured = episodesConfig(env, value, [value.task_id]);
  if (isRefused(configured)) return configured;
  const launched = await launchEpisodes(env, tenant, configured.config);
  return isRefused(launched) ? launched : openingOf(env, launched.episodes[0]!);
};

/** Joins the tenant's episode of that id: what its participant sees from its start. */
export const joinEpisode = async (env: Env, tenant: string, id: string): Promise<Opened | Refusal> => {
  const found = await findEpisode(env, tenant, id);
  return isRefused(found) ? found : openingOf(env, found.handle);
};

/** Applies the caller's message for turn `step` (exactly once) and answers with what the caller sees next. */
export const stepEpisode = async (env: Env, episode: EpisodeHandle, value: EpisodeStepRequest): Promise<Stepped | Refusal> => {
  if (!episode.external) return stepRefusal('not_external', 'agent', value.step, null);
  const submit = () => env.EPISODE.getByName(episode.key).submitExternalTurn(value.step, turnResponseOf(value.message), { produceNext: true });
  let outcome = await submit();
  if (outcome.status === 'refused' && outcome.reason === 'not_pending' && outcome.pending_step === null) {
    // Not the agent's turn yet (e.g. the simulated user has not spoken first): wait for it, then apply.
    // An episode that ended meanwhile answers with its graded end, as below.
    const settled = await settle(env, episode, value.step);
    if (settled.kind === 'not_ready') return noAnswerYet(episode, value.step);
    if (settled.kind !== 'cancelled') outcome = await submit();
  }
  if (outcome.status === 'refused' && outcome.reason === 'done') return episodeDone(outcome.final_step ?? null);
  if (outcome.status === 'refused') {
    const graded = outcome.reason === 'not_running' ? await gradedSimulation(env, episode) : null;
    if (graded === 'not_ready') return noAnswerYet(episode, value.step);
    if (graded === null) return stepRefusal(outcome.reason, episode.role, value.step, outcome.pending_step, outcome.message);
    return stepAnswer({ kind: 'graded', simulation: graded }, episode, value.step + 1);
  }
  if (outcome.view !== undefined) return stepAnswer({ kind: 'live', view: outcome.view }, episode, value.step + 1);
  // The simulated user's reply is produced here, without a queue hop.
  if (outcome.pending !== undefined) await produceTurns(env, env.EPISODE.getByName(episode.key), outcome.pending, Date.now() + waitMs(env));
  return stepAnswer(await settle(env, episode, value.step + 1), episode, value.step + 1);
};
