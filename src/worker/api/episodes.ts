// /v1/episodes: client-driven episodes, the reference's AgentGymEnv and UserGymEnv over HTTP. The caller plays
// the agent (against the simulated user) or the user (against the built-in agent): creating an episode answers
// with what that participant is given (policy or instructions, its tools) and the opening messages; each step
// submits its message for turn `step` and answers with what it sees next (tool results, the other side's
// reply), and with the reference's reward_info once the episode is done. An episode is a one-episode run of the
// `external` agent or the `external_user`, so quotas, results files, events and metrics work as for any run.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { EpisodeCreateSchema, EpisodeStepRequestSchema, RunRequestSchema } from '../../core/schemas/api.ts';
import type { Episode, EpisodeCreated, EpisodeStep, EpisodeStepRequest } from '../../core/schemas/api.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import type { Message } from '../../core/schemas/message.ts';
import { parsePyJson, sha256Hex } from '../../core/py/index.ts';
import { decodeConfig, encodeConfig, findRun } from '../db/runs.ts';
import { loadDomain } from '../data/domains.ts';
import { isExternalAgent, isSoloAgent } from '../../core/schemas/episode.ts';
import type { RunRow } from '../db/runs.ts';
import { defaultSleep } from '../../core/llm/retry.ts';
import { findEpisodeSimulation } from '../db/simulations.ts';
import { launchRun, selectEpisodes } from '../runs/launch.ts';
import { limits } from '../limits.ts';
import { episodeIdOf, episodeKey, episodeOfId } from '../episode/launch.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import type { ExternalObservation } from '../episode/turn.ts';
import type { TurnResponse } from '../episode/turn.ts';
import { participantObservation } from '../episode/machine.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { produceTurns } from '../turns/consumer.ts';
import { ApiError, invalidRequest, notFound, refused, zodIssues } from './errors.ts';
import { pyJson, readBody } from './body.ts';

/** How long a request waits for the episode to need the caller again (the user's reply, the grading). */
const waitMs = (env: Env): number => limits(env).LIMIT_EPISODE_WAIT_SECONDS * 1000;

/**
 * The episode had nothing to answer with in time (e.g. its simulation not yet in D1): the caller asks again,
 * which is safe for a step (each is applied once).
 */
const notReady = (message: string, headers: Record<string, string> = {}): ApiError =>
  new ApiError(503, 'not_ready', message, undefined, { 'Retry-After': '5', ...headers });
const noAnswerYet = (episode: EpisodeHandle, step: number): ApiError =>
  notReady(`Episode ${episodeIdOf(episode.key)} has no answer to step ${step} yet; send the same step again`);

interface EpisodeHandle extends EpisodeRef {
  readonly key: string;
  readonly run: RunRow;
}

/** The caller's episode; another tenant's is as unknown as one that never existed. */
const requireEpisode = async (c: Context<AppEnv>): Promise<EpisodeHandle> => {
  const id = c.req.param('id')!;
  const ref = episodeOfId(id);
  const run = ref === null ? null : await findRun(c.env.DB, ref.run_id, c.get('caller').tenant);
  if (ref === null || run === null) throw notFound('Episode', id);
  return { ...ref, run };
};

/** The agent's message as a turn result (the engine parses the arguments text as it parses a model's). */
const turnResponseOf = (message: EpisodeStepRequest['message']): TurnResponse => ({
  kind: 'response',
  content: message.content ?? null,
  tool_calls: (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
  usage: null,
  raw_data: null,
});

/** The messages of an observation (the episode object sends them as JSON text). */
const viewMessages = (view: ExternalObservation): Record<string, unknown>[] => JSON.parse(view.messages) as Record<string, unknown>[];

/** What the caller's participant is given: the agent the policy, the user its instructions; and its tools. */
const given = (view: ExternalObservation): { policy?: string; instructions?: string; tools?: Record<string, unknown>[] } => {
  if (view.given === null) return {};
  const { policy, instructions, tools } = view.given;
  return {
    ...(view.role === 'agent' ? { policy } : instructions === null ? {} : { instructions }),
    tools: parsePyJson(tools) as unknown as Record<string, unknown>[],
  };
};

const cancelled = (): ApiError => new ApiError(409, 'conflict', 'The episode was cancelled');

/** A step sent to an episode that is over: only its final step, sent again unchanged, is answered (again). */
const episodeDone = (finalStep: number | null): ApiError =>
  new ApiError(
    409,
    'conflict',
    finalStep === null
      ? 'The episode is done and takes no more steps'
      : `The episode is done: its final step was ${finalStep}, and only that step sent again unchanged is answered`,
  );

/** The role the caller plays in an episode of this run. */
const roleOf = (config: RunConfig): TurnRole => (config.user === 'external_user' ? 'user' : 'agent');

/** The trajectory role of the caller's own messages. */
const ownMessageRole = (role: TurnRole): Message['role'] => (role === 'agent' ? 'assistant' : 'user');

/** What the caller saw after its last message: a graded episode ended after the caller's last turn. */
const afterLastOwnMessage = (role: TurnRole, simulation: SimulationRun): Record<string, unknown>[] => {
  const messages = simulation.messages ?? [];
  const last = messages.findLastIndex((m) => m.role === ownMessageRole(role));
  return participantObservation(role, messages.slice(last + 1));
};

/** The caller's turns in a finished conversation: its messages after the opening (greeting or history). */
const ownTurnCount = async (env: Env, config: RunConfig, taskId: string, messages: readonly Message[]): Promise<number> => {
  const { data } = await loadDomain(env.ASSETS, config.domain);
  const history = data.tasks.find((t) => t.id === taskId)?.initial_state?.message_history ?? [];
  const opening = history.length > 0 ? history.length : isSoloAgent(config.agent) ? 0 : 1;
  return messages.slice(opening).filter((m) => m.role === ownMessageRole(roleOf(config))).length;
};

/** A call that met the episode's instance as it reset itself (it had just finished) is made again. */
const retriedOnReset = (error: unknown): undefined => {
  if (error instanceof Error && (error as { durableObjectReset?: boolean }).durableObjectReset === true) return undefined;
  throw error;
};

/** Pauses between two reads of an episode that is waited for: FIRST_PAUSE_MS, doubling up to 200 ms. */
const FIRST_PAUSE_MS = 5;
const nextPause = (pause: number): number => Math.min(pause * 2, 200);

type Settled =
  | { readonly kind: 'live'; readonly view: ExternalObservation }
  | { readonly kind: 'graded'; readonly simulation: SimulationRun }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'not_ready' };

/**
 * Waits (bounded) until the episode waits for the caller, or is graded; past the wait, a running episode is
 * answered as it stands, one that cannot be observed (not started yet, or graded but its simulation not yet in
 * D1) as not ready. A stub is taken per call: a finished episode resets its instance.
 */
const settle = async (env: Env, episode: EpisodeHandle, since: number, withGiven = false): Promise<Settled> => {
  const deadline = Date.now() + waitMs(env);
  for (let pause = FIRST_PAUSE_MS; ; pause = nextPause(pause)) {
    const stub = env.EPISODE.getByName(episode.key);
    const view = await stub.observe(since, withGiven).catch(retriedOnReset);
    if (view !== undefined && view !== null && (view.waiting || Date.now() > deadline)) return { kind: 'live', view };
    if (view === null) {
      const simulation = await findEpisodeSimulation(env.DB, episode.run.id, episode.task_id, episode.trial);
      if (simulation !== null) return { kind: 'graded', simulation };
      if ((await stub.snapshot().catch(retriedOnReset))?.phase === 'cancelled') return { kind: 'cancelled' };
    }
    if (Date.now() > deadline) return { kind: 'not_ready' };
    await defaultSleep(pause);
  }
};

/**
 * The simulation of an episode that refused a turn as no longer running, or null (never started, or
 * cancelled). A finished episode's simulation is on its way to its run, then with the run until its next write
 * to D1, so it is waited for (bounded: then not ready).
 */
const gradedSimulation = async (env: Env, episode: EpisodeHandle): Promise<SimulationRun | null | 'not_ready'> => {
  const deadline = Date.now() + waitMs(env);
  for (let pause = FIRST_PAUSE_MS; ; pause = nextPause(pause)) {
    const simulation = await findEpisodeSimulation(env.DB, episode.run.id, episode.task_id, episode.trial);
    if (simulation !== null) return simulation;
    const phase = (await env.EPISODE.getByName(episode.key).snapshot().catch(retriedOnReset))?.phase;
    if (phase === null || phase === 'cancelled') return null;
    if (Date.now() > deadline) return 'not_ready';
    await defaultSleep(pause);
  }
};

/** The answer to step `step - 1`. */
const stepAnswer = (settled: Settled, episode: EpisodeHandle, step: number, role: TurnRole): EpisodeStep => {
  switch (settled.kind) {
    case 'live':
      return { step: settled.view.step, done: settled.view.done, termination_reason: settled.view.termination_reason as EpisodeStep['termination_reason'], observation: { messages: viewMessages(settled.view) } };
    case 'graded':
      return {
        step,
        done: true,
        termination_reason: settled.simulation.termination_reason,
        observation: { messages: afterLastOwnMessage(role, settled.simulation) },
        reward_info: settled.simulation.reward_info as Record<string, unknown> | null,
      };
    case 'cancelled':
      throw cancelled();
    case 'not_ready':
      throw noAnswerYet(episode, step - 1);
  }
};

/** Why a step was not applied, as the HTTP answer. */
const stepRefusal = (reason: string, role: TurnRole, step: number, pending: number | null, message?: string): ApiError => {
  switch (reason) {
    case 'invalid':
      // The reference's gym answers an action it cannot take with this text.
      return invalidRequest([{ path: 'message', message: `Invalid action with error: ${message ?? ''}` }]);
    case 'conflict':
      return new ApiError(409, 'conflict', `Step ${step} was already answered with another message`);
    case 'not_external':
      return new ApiError(409, 'conflict', 'No participant of this episode is played from outside');
    case 'not_running':
      return new ApiError(409, 'conflict', 'The episode is over');
    default:
      return new ApiError(409, 'conflict', pending === null ? `Step ${step} is not waited for: the episode is not waiting for the ${role}` : `Step ${step} is not waited for: the episode waits for step ${pending}`);
  }
};

export const episodesApi = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { value } = await readBody(c, EpisodeCreateSchema);
    const { tenant } = c.get('caller');
    const playsUser = value.role === 'user';
    const parsed = RunRequestSchema.safeParse({
      domain: value.domain,
      task_split_name: null,
      task_ids: [value.task_id],
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
      max_concurrency: 1,
    });
    if (!parsed.success) throw invalidRequest(zodIssues(parsed.error));
    const config = parsed.data;
    const selection = await selectEpisodes(c.env, config);
    if (!selection.ok) throw refused(selection);
    const { run } = await launchRun(c.env, config, selection.episodes, { tenant, requestHash: sha256Hex(encodeConfig(config)) });
    const ref = selection.episodes[0]!;
    const episode: EpisodeHandle = { ...ref, key: episodeKey(run.id, ref), run };
    const settled = await settle(c.env, episode, 0, true);
    if (settled.kind === 'cancelled') throw cancelled();
    if (settled.kind === 'not_ready') {
      const id = episodeIdOf(episode.key);
      throw notReady(`Episode ${id} was created but has not started yet; read it later at its Location`, { Location: `/v1/episodes/${id}` });
    }
    const body: EpisodeCreated =
      settled.kind === 'live'
        ? {
            episode_id: episodeIdOf(episode.key),
            run_id: run.id,
            step: settled.view.step,
            done: settled.view.done,
            observation: { ...given(settled.view), messages: viewMessages(settled.view) },
          }
        : { episode_id: episodeIdOf(episode.key), run_id: run.id, step: 0, done: true, observation: { messages: participantObservation(roleOf(config), settled.simulation.messages ?? []) } };
    c.header('Location', `/v1/episodes/${body.episode_id}`);
    return pyJson(c, body, 201);
  })
  .post('/:id/step', async (c) => {
    const { value } = await readBody(c, EpisodeStepRequestSchema);
    const episode = await requireEpisode(c);
    const config = decodeConfig(episode.run.config);
    if (!isExternalAgent(config.agent) && config.user !== 'external_user') throw stepRefusal('not_external', 'agent', value.step, null);
    const role = roleOf(config);
    const submit = () => c.env.EPISODE.getByName(episode.key).submitExternalTurn(value.step, turnResponseOf(value.message), { produceNext: true });
    let outcome = await submit();
    if (outcome.status === 'refused' && outcome.reason === 'not_pending' && outcome.pending_step === null) {
      // Not the agent's turn yet (e.g. the simulated user has not spoken first): wait for it, then apply.
      // An episode that ended meanwhile answers with its graded end, as below.
      const settled = await settle(c.env, episode, value.step);
      if (settled.kind === 'not_ready') throw noAnswerYet(episode, value.step);
      if (settled.kind !== 'cancelled') outcome = await submit();
    }
    if (outcome.status === 'refused' && outcome.reason === 'done') throw episodeDone(outcome.final_step ?? null);
    if (outcome.status === 'refused') {
      const graded = outcome.reason === 'not_running' ? await gradedSimulation(c.env, episode) : null;
      if (graded === 'not_ready') throw noAnswerYet(episode, value.step);
      if (graded === null) throw stepRefusal(outcome.reason, role, value.step, outcome.pending_step, outcome.message);
      return pyJson(c, stepAnswer({ kind: 'graded', simulation: graded }, episode, value.step + 1, role));
    }
    if (outcome.view !== undefined) return pyJson(c, stepAnswer({ kind: 'live', view: outcome.view }, episode, value.step + 1, role));
    // The simulated user's reply is produced here, without a queue hop.
    if (outcome.pending !== undefined) await produceTurns(c.env, c.env.EPISODE.getByName(episode.key), outcome.pending, Date.now() + waitMs(c.env));
    return pyJson(c, stepAnswer(await settle(c.env, episode, value.step + 1), episode, value.step + 1, role));
  })
  .get('/:id', async (c) => {
    const episode = await requireEpisode(c);
    const stub = c.env.EPISODE.getByName(episode.key);
    const fields = { episode_id: c.req.param('id'), run_id: episode.run.id, task_id: episode.task_id, trial: episode.trial };
    const view = await stub.observe(0, true);
    let body: Episode;
    if (view !== null) {
      body = {
        ...fields,
        status: view.done ? 'evaluating' : 'running',
        step: view.step,
        waiting: view.waiting,
        done: view.done,
        termination_reason: view.termination_reason as Episode['termination_reason'],
        messages: viewMessages(view),
        policy: null,
        instructions: null,
        tools: null,
        ...given(view),
        reward_info: null,
        simulation_id: null,
      };
    } else {
      const simulation = await findEpisodeSimulation(c.env.DB, episode.run.id, episode.task_id, episode.trial);
      const stopped = simulation === null && (await stub.snapshot()).phase === 'cancelled';
      const config = decodeConfig(episode.run.config);
      const messages = simulation?.messages ?? [];
      body = {
        ...fields,
        status: simulation !== null ? 'done' : stopped ? 'cancelled' : 'running',
        step: simulation === null ? 0 : await ownTurnCount(c.env, config, episode.task_id, messages),
        waiting: false,
        done: simulation !== null,
        termination_reason: simulation?.termination_reason ?? null,
        messages: participantObservation(roleOf(config), messages),
        policy: null,
        instructions: null,
        tools: null,
        reward_info: (simulation?.reward_info as Record<string, unknown> | null | undefined) ?? null,
        simulation_id: simulation?.id ?? null,
      };
    }
    return pyJson(c, body);
  });
