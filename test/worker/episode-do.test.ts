// The episode Durable Object: an object reset mid-episode resumes from its stored state and finishes
// with the same simulation as an uninterrupted one, written to D1 exactly once.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';
import { episodeKey } from '../../src/worker/episode/launch.ts';
import { writeSimulation } from '../../src/worker/db/simulations.ts';
import { call, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { normalizedSimulation } from './support/normalize.ts';

const body = scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1'] });

const onlySimulation = async (runId: string): Promise<SimulationRun> => {
  const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()));
  expect(results.simulations).toHaveLength(1);
  return results.simulations[0]!;
};

const rowCount = async (sql: string, value: string): Promise<number> =>
  (await env.DB.prepare(sql).bind(value).first<{ n: number }>())!.n;

describe('EpisodeDO', () => {
  it('resumes after a reset mid-episode and finishes with the same result, written once', async () => {
    const reference = await onlySimulation(await startRun(body).then(async (id) => (await waitForRun(id), id)));

    const runId = await startRun(body);
    const key = episodeKey(runId, { task_id: 'create_task_1', trial: 0 });
    let stub = env.EPISODE.getByName(key);
    let steps = 0;
    for (let i = 0; i < 200 && steps < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      steps = (await stub.snapshot()).stepCount ?? 0;
    }
    expect(steps).toBeGreaterThanOrEqual(2);
    // A reset as after a crash: every instance is torn down (even mid-step), storage is kept.
    await abortAllDurableObjects();
    // Stubs to aborted instances are broken; a new stub reaches the restarted object.
    stub = env.EPISODE.getByName(key);
    const resumed = await stub.snapshot();
    expect(resumed.phase).toBe('running');
    expect(resumed.stepCount).toBeGreaterThanOrEqual(steps);

    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    const simulation = await onlySimulation(runId);
    expect(normalizedSimulation(simulation)).toEqual(normalizedSimulation(reference));
    // A finished episode resets its instance (so it holds no memory while the run goes on): a stub from
    // before then is broken, a new one reaches the stored object.
    await expect.poll(() => stub.snapshot().then(() => 'alive', (error: Error) => error.message)).toBe('episode finished');
    expect((await env.EPISODE.getByName(key).snapshot()).phase).toBe('finished');
    expect(await rowCount('SELECT count(*) AS n FROM simulations WHERE run_id = ?', runId)).toBe(1);
    expect(await rowCount('SELECT count(*) AS n FROM messages WHERE simulation_id = ?', simulation.id)).toBe(simulation.messages!.length);

    // A replayed write (a retried final alarm) changes nothing.
    await writeSimulation(env.DB, runId, simulation);
    expect(await rowCount('SELECT count(*) AS n FROM simulations WHERE run_id = ?', runId)).toBe(1);
    expect(await rowCount('SELECT count(*) AS n FROM messages WHERE simulation_id = ?', simulation.id)).toBe(simulation.messages!.length);
  });
});
