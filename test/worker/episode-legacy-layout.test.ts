// An episode stored in the previous layout (its values in the runtime's key-value storage, the launch with the
// run's configuration as an object, the next step as a value of its own) resumes after a deploy across the
// change: it is moved to the current layout on first touch and ends with the same simulation.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import type { PyInput } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';
import { decodeConfig } from '../../src/worker/db/runs.ts';
import { EpisodeLaunchTextSchema, episodeKey } from '../../src/worker/episode/launch.ts';
import type { EpisodeDO } from '../../src/worker/episode/episode-do.ts';
import { call, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { normalizedSimulation } from './support/normalize.ts';

const body = scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1'] });

const onlySimulation = async (runId: string): Promise<SimulationRun> => {
  const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()));
  expect(results.simulations).toHaveLength(1);
  return results.simulations[0]!;
};

/**
 * Rewrites the episode's storage as the previous code wrote it: values in the key-value storage (the launch as
 * Python-JSON with the configuration decoded, as the run object sent it), `next_step` beside them, and no
 * table of values.
 */
const toPreviousLayout = (storage: DurableObjectStorage): void => {
  const values = storage.sql.exec<{ key: string; value: string }>(`SELECT key, value FROM episode_values`).toArray();
  for (const { key, value } of values) {
    if (key === 'launch') {
      const { config, ...launch } = EpisodeLaunchTextSchema.parse(JSON.parse(JSON.parse(value) as string));
      storage.kv.put(key, dumpsPy({ run_id: launch.run_id, config: decodeConfig(config), task_id: launch.task_id, trial: launch.trial } as unknown as PyInput));
    } else {
      storage.kv.put(key, JSON.parse(value));
    }
  }
  const last = storage.sql.exec<{ last: number }>(`SELECT max(step) AS last FROM turns`).one().last;
  storage.kv.put('next_step', last + 1);
  storage.sql.exec(`DROP TABLE episode_values`);
};

describe('EpisodeDO storage of the previous layout', () => {
  it('an episode stored in the previous layout mid-run resumes on first touch and ends with the same simulation', async () => {
    const reference = await onlySimulation(await startRun(body).then(async (id) => (await waitForRun(id), id)));

    const runId = await startRun(body);
    const key = episodeKey(runId, { task_id: 'create_task_1', trial: 0 });
    const stub = env.EPISODE.getByName(key);
    // Right after the slow agent's turn is asked for (after two steps at least), nothing reaches the object for
    // a while: the storage is rewritten then and the instance reset, as a deploy would.
    let steps = 0;
    for (let i = 0; i < 400 && steps < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const pending = await stub.pendingTurn();
      steps = pending?.role === 'agent' ? ((await stub.snapshot()).stepCount ?? 0) : 0;
    }
    expect(steps).toBeGreaterThanOrEqual(2);
    const previous = await runInDurableObject(stub, (_instance: EpisodeDO, state) => {
      toPreviousLayout(state.storage);
      return [...state.storage.kv.list()].map(([name]) => name).sort();
    });
    expect(previous).toEqual(['cursor', 'launch', 'next_step', 'phase']);
    await abortAllDurableObjects();

    const resumed = await env.EPISODE.getByName(key).snapshot();
    expect(resumed).toMatchObject({ phase: 'running', attempt: 1, done: false });
    expect(resumed.stepCount).toBeGreaterThanOrEqual(steps);
    // Moved, not copied: the key-value storage holds nothing of the episode any more.
    expect(await runInDurableObject(env.EPISODE.getByName(key), (_instance: EpisodeDO, state) => [...state.storage.kv.list()].length)).toBe(0);

    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    expect(normalizedSimulation(await onlySimulation(runId))).toEqual(normalizedSimulation(reference));
  });
});
