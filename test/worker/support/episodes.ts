// Creating an episode through the API, as its client does: one mock task, the caller's body over it.
import { expect } from 'vitest';
import { EpisodeCreatedSchema } from '../../../src/api/index.ts';
import type { EpisodeCreated } from '../../../src/api/index.ts';
import { call } from './api.ts';

/** A created episode of the mock task `create_task_1` (201), with `body` over the defaults. */
export const createEpisode = async (body: Record<string, unknown>): Promise<EpisodeCreated> => {
  const response = await call('/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', ...body } });
  expect(response.status, await response.clone().text()).toBe(201);
  return EpisodeCreatedSchema.parse(await response.json());
};
