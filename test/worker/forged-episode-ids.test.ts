// An episode id names an object by its run, trial and task; one the run never had (another of the domain's tasks,
// a trial past the run's, an episode the run skipped) is unknown on every route that takes an episode id, at
// once, and creates no episode object and no row.
import { env } from 'cloudflare:workers';
import { listDurableObjectIds } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, EpisodeCreatedSchema } from '../../src/api/index.ts';
import { episodeIdOf, episodeKey } from '../../src/worker/episode/launch.ts';
import { call } from './support/api.ts';
import { SCRIPT_MODELS } from './support/script.ts';
import { connect, errorData } from './support/openenv.ts';

const simulationRows = async (runId: string): Promise<number> =>
  (await env.DB.prepare('SELECT count(*) AS n FROM simulations WHERE run_id = ?').bind(runId).first<{ n: number }>())!.n;

describe('forged episode ids', () => {
  it('an id whose run has no such task and trial is 404 on GET, step, OpenEnv reset/step and a WebSocket join; no object is made', async () => {
    const created = await call('/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user } });
    expect(created.status).toBe(201);
    const { run_id: runId } = EpisodeCreatedSchema.parse(await created.json());
    const forged = [
      { task_id: 'update_task_1', trial: 7 },
      { task_id: 'update_task_1', trial: 0 },
      { task_id: 'create_task_1', trial: 1 },
    ].map((ref) => ({ key: episodeKey(runId, ref), id: episodeIdOf(episodeKey(runId, ref)) }));
    const client = await connect();
    for (const { id } of forged) {
      const answers = [
        await call(`/v1/episodes/${id}`),
        await call(`/v1/episodes/${id}/step`, { body: { step: 0, message: { role: 'assistant', content: 'hi' } } }),
        await call('/openenv/reset', { body: { episode_id: id } }),
        await call('/openenv/step', { body: { episode_id: id, action: { message: { role: 'assistant', content: 'hi' } } } }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(ApiErrorSchema.parse(await answer.json()).error.code).toBe('not_found');
      }
      expect(errorData(await client.ask({ type: 'reset', data: { episode_id: id } }))).toMatchObject({ code: 'FACTORY_ERROR', status: 404, reason: 'not_found' });
    }
    client.close();
    const objects = new Set((await listDurableObjectIds(env.EPISODE)).map((id) => id.toString()));
    for (const { key } of forged) expect(objects.has(env.EPISODE.idFromName(key).toString()), key).toBe(false);
    expect(await simulationRows(runId)).toBe(0);
  });
});
