// /v1/episodes: client-driven episodes, the reference's AgentGymEnv and UserGymEnv over HTTP. The caller plays
// the agent (against the simulated user) or the user (against the built-in agent): creating an episode answers
// with what that participant is given (policy or instructions, its tools) and the opening messages; each step
// submits its message for turn `step` and answers with what it sees next (tool results, the other side's
// reply), and with the reference's reward_info once the episode is done. An episode is a one-episode run of the
// `external` agent or the `external_user` (a batch, one run of many), so quotas, results files, events and
// metrics work as for any run. The work itself is the episode service's (episode/service.ts), shared with OpenEnv;
// its refusals are answered as HTTP errors (episode-refusals.ts).
import { Hono } from 'hono';
import { z } from 'zod';
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { EpisodeBatchForkSchema, EpisodeBatchSchema, EpisodeCreateSchema, EpisodeForkSchema, EpisodeStepRequestSchema, IDEMPOTENCY_KEY_HEADER } from '../../api/index.ts';
import type { Episode, EpisodeBatchCreated } from '../../api/index.ts';
import type { Message } from '../../core/schemas/message.ts';
import { decodeConfig } from '../db/runs.ts';
import { loadDomain } from '../data/domains.ts';
import { isSoloAgent } from '../../core/schemas/episode.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import { findEpisodeSimulation } from '../db/simulations.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { participantObservation } from '../../core/episode/machine.ts';
import { createEpisode, episodesConfig, given, launchEpisodes, ownMessageRole, stepEpisode, viewMessages } from '../episode/service.ts';
import { findEpisode } from '../episode/handle.ts';
import { answered } from './episode-refusals.ts';
import { forked } from './forks.ts';
import { idempotencyKey } from './runs.ts';
import { parsed, pyJson, readBody } from './body.ts';

/** The caller's turns in a finished conversation: its messages after the opening (greeting or history). */
const ownTurnCount = async (env: Env, config: RunConfig, role: TurnRole, taskId: string, messages: readonly Message[]): Promise<number> => {
  const { data } = await loadDomain(env.ASSETS, config.domain);
  const history = data.tasks.find((t) => t.id === taskId)?.initial_state?.message_history ?? [];
  const opening = history.length > 0 ? history.length : isSoloAgent(config.agent) ? 0 : 1;
  return messages.slice(opening).filter((m) => m.role === ownMessageRole(role)).length;
};

const requireEpisode = async (c: Context<AppEnv>) => answered(await findEpisode(c.env, c.get('caller').tenant, c.req.param('id')!));

export const episodesApi = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { value } = await readBody(c, EpisodeCreateSchema);
    const { opening: body } = answered(await createEpisode(c.env, c.get('caller').tenant, value));
    c.header('Location', `/v1/episodes/${body.episode_id}`);
    return pyJson(c, body, 201);
  })
  .post('/batch', async (c) => {
    const { value: request } = await readBody(c, z.looseObject({}));
    const { tenant } = c.get('caller');
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    const key = idempotencyKey(header, tenant);
    const idempotency = key === undefined ? undefined : { key, header: header! };
    if ('fork_of' in request) {
      const { fork_of: origin, ...changes } = parsed(EpisodeBatchForkSchema, request);
      return forked(c, origin, { ...changes, at_step: origin.at_step }, idempotency);
    }
    const value = parsed(EpisodeBatchSchema, request);
    const { task_ids, num_trials, ...settings } = value;
    const { config } = answered(episodesConfig(c.env, settings, task_ids, num_trials));
    const { run, episodes } = answered(await launchEpisodes(c.env, tenant, config, idempotency));
    const body: EpisodeBatchCreated = { run_id: run.id, episode_ids: episodes.map((e) => episodeIdOf(e.key)) };
    c.header('Location', `/v1/runs/${run.id}`);
    return pyJson(c, body, 201);
  })
  .post('/:id/fork', async (c) => {
    const { value } = await readBody(c, EpisodeForkSchema);
    return forked(c, { episode_id: c.req.param('id'), at_step: value.at_step }, value);
  })
  .post('/:id/step', async (c) => {
    const { value } = await readBody(c, EpisodeStepRequestSchema);
    const { handle } = await requireEpisode(c);
    return pyJson(c, answered(await stepEpisode(c.env, handle, value)).answer);
  })
  .get('/:id', async (c) => {
    const { handle: episode, run } = await requireEpisode(c);
    const stub = c.env.EPISODE.getByName(episode.key);
    const fields = { episode_id: c.req.param('id'), run_id: run.id, task_id: episode.task_id, trial: episode.trial };
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
      const simulation = await findEpisodeSimulation(c.env.DB, run.id, episode.task_id, episode.trial);
      const stopped = simulation === null && (await stub.snapshot()).phase === 'cancelled';
      const config = decodeConfig(run.config);
      const messages = simulation?.messages ?? [];
      body = {
        ...fields,
        status: simulation !== null ? 'done' : stopped ? 'cancelled' : 'running',
        step: simulation === null ? 0 : await ownTurnCount(c.env, config, episode.role, episode.task_id, messages),
        waiting: false,
        done: simulation !== null,
        termination_reason: simulation?.termination_reason ?? null,
        messages: participantObservation(episode.role, messages),
        policy: null,
        instructions: null,
        tools: null,
        reward_info: (simulation?.reward_info as Record<string, unknown> | null | undefined) ?? null,
        simulation_id: simulation?.id ?? null,
      };
    }
    return pyJson(c, body);
  });
