// The answer to a fork request (POST /v1/episodes/:id/fork, POST /v1/simulations/:id/fork, a batch's fork_of): the fork group's run
// and its episodes (201), or the episode service's refusal as an HTTP error.
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import type { EpisodeFork, EpisodeForkCreated } from '../../api/index.ts';
import type { ForkOrigin } from '../../core/schemas/run-config.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { openForks } from '../episode/fork.ts';
import type { Idempotency } from '../episode/service.ts';
import { answered } from './episode-refusals.ts';
import { pyJson } from './body.ts';

export const forked = async (c: Context<AppEnv>, origin: ForkOrigin, value: EpisodeFork, idempotency?: Idempotency): Promise<Response> => {
  const { run, episodes } = answered(await openForks(c.env, c.get('caller').tenant, origin, value, idempotency));
  const body: EpisodeForkCreated = { run_id: run.id, episode_ids: episodes.map((e) => episodeIdOf(e.key)), forked_from: origin };
  c.header('Location', `/v1/runs/${run.id}`);
  return pyJson(c, body, 201);
};
