// Creating an episode through the API, as its client does: one mock task, the caller's body over it; and an
// episode's client gone quiet past its idle limit, without waiting it out.
import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import { EpisodeCreatedSchema } from '../../../src/api/index.ts';
import type { EpisodeCreated } from '../../../src/api/index.ts';
import type { Episode } from '../../../src/worker/episode/episode.ts';
import type { EpisodeDO } from '../../../src/worker/episode/episode-do.ts';
import { episodeOfId } from '../../../src/worker/episode/launch.ts';
import { call } from './api.ts';

/** A created episode of the mock task `create_task_1` (201), with `body` over the defaults. */
export const createEpisode = async (body: Record<string, unknown>): Promise<EpisodeCreated> => {
  const response = await call('/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', ...body } });
  expect(response.status, await response.clone().text()).toBe(201);
  return EpisodeCreatedSchema.parse(await response.json());
};

/**
 * Moves the moment the episode asked for its external turn back past its idle limit, as if its client had been
 * quiet that long, and fires its alarm. (The tests' idle limit is long enough that no test waits it out by
 * accident on a busy machine.)
 */
export const idlePastLimit = async (episodeId: string): Promise<void> => {
  const stub = env.EPISODE.getByName(episodeOfId(episodeId)!.key);
  await runInDurableObject(stub, (instance: EpisodeDO) => {
    const { episode } = instance as unknown as { episode: Episode };
    episode.store.put('asked_at', Date.now() - episode.externalTurnTtlMs() - 1);
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true);
};
