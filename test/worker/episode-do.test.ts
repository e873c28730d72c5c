// The episode Durable Object: an object reset mid-episode resumes from its stored state and finishes
// with the same simulation as an uninterrupted one, written to D1 exactly once; so does an episode stored in an
// earlier layout (a table per kind of row; before that, its values in the runtime's key-value storage, the
// launch with the run's configuration as an object, the next step as a value of its own), moved to the
// current layout on first touch.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import type { PyInput } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';
import { decodeConfig } from '../../src/worker/db/runs.ts';
import { EpisodeLaunchTextSchema, episodeKey } from '../../src/worker/episode/launch.ts';
import type { EpisodeDO } from '../../src/worker/episode/episode-do.ts';
import { simulationRows, writeSimulations } from '../../src/worker/db/simulations.ts';
import { call, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { normalizedSimulation } from './support/normalize.ts';
import { tablesOf, toTablesLayout } from './support/episode-layouts.ts';

const body = scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1'] });

const onlySimulation = async (runId: string): Promise<SimulationRun> => {
  const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()));
  expect(results.simulations).toHaveLength(1);
  return results.simulations[0]!;
};

const rowCount = async (sql: string, value: string): Promise<number> =>
  (await env.DB.prepare(sql).bind(value).first<{ n: number }>())!.n;

/** A started run of `body` and its episode, once the episode has taken two steps and `ready` holds. */
const midEpisode = async (ready: (stub: DurableObjectStub<EpisodeDO>) => Promise<boolean>) => {
  const runId = await startRun(body);
  const key = episodeKey(runId, { task_id: 'create_task_1', trial: 0 });
  const stub = env.EPISODE.getByName(key);
  let steps = 0;
  for (let i = 0; i < 400 && steps < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    steps = (await ready(stub)) ? ((await stub.snapshot()).stepCount ?? 0) : 0;
  }
  expect(steps).toBeGreaterThanOrEqual(2);
  return { runId, key, steps };
};

/**
 * Rewrites the episode's storage as the first layout stored it: a table per kind of row, the values in the
 * key-value storage (the launch as Python-JSON with the configuration decoded, as the run object sent it) and
 * `next_step` beside them.
 */
const toKeyValueLayout = (storage: DurableObjectStorage): void => {
  for (const [key, value] of toTablesLayout(storage.sql, { valuesInTable: false })) {
    if (key === 'launch') {
      const { config, ...launch } = EpisodeLaunchTextSchema.parse(JSON.parse(value as string));
      storage.kv.put(key, dumpsPy({ run_id: launch.run_id, config: decodeConfig(config), task_id: launch.task_id, trial: launch.trial } as unknown as PyInput));
    } else {
      storage.kv.put(key, value);
    }
  }
  const last = storage.sql.exec<{ last: number }>(`SELECT max(step) AS last FROM turns`).one().last;
  storage.kv.put('next_step', last + 1);
};

/**
 * The run's periodic check, due RECOVERY_MS after it was armed, run now rather than waited for: it asks again for
 * the turn the reset lost. That the run has it armed is part of what is checked.
 */
const runCheckNow = async (runId: string): Promise<void> => {
  expect(await runDurableObjectAlarm(env.RUN.getByName(runId))).toBe(true);
};

describe('EpisodeDO', () => {
  it('resumes after a reset mid-episode and finishes with the same result, written once', async () => {
    const reference = await onlySimulation(await startRun(body).then(async (id) => (await waitForRun(id), id)));

    const { runId, key, steps } = await midEpisode(async () => true);
    let stub = env.EPISODE.getByName(key);
    // A reset as after a crash: every instance is torn down (even mid-step), storage is kept.
    await abortAllDurableObjects();
    // Stubs to aborted instances are broken; a new stub reaches the restarted object.
    stub = env.EPISODE.getByName(key);
    const resumed = await stub.snapshot();
    expect(resumed.phase).toBe('running');
    expect(resumed.stepCount).toBeGreaterThanOrEqual(steps);
    await runCheckNow(runId);

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

    // A replayed write (a retried write of the run's) changes nothing.
    await writeSimulations(env.DB, [simulationRows(runId, simulation, new Date().toISOString())]);
    expect(await rowCount('SELECT count(*) AS n FROM simulations WHERE run_id = ?', runId)).toBe(1);
    expect(await rowCount('SELECT count(*) AS n FROM messages WHERE simulation_id = ?', simulation.id)).toBe(simulation.messages!.length);
  });

  const layouts: [label: string, rewrite: (storage: DurableObjectStorage) => void, keys: string[], tables: string[]][] = [
    ['a table per kind of row', (storage) => void toTablesLayout(storage.sql), [], ['env_changes', 'episode_values', 'external_turns', 'messages', 'turns']],
    ['its values in the key-value storage', toKeyValueLayout, ['cursor', 'launch', 'next_step', 'phase'], ['env_changes', 'external_turns', 'messages', 'turns']],
  ];
  it.each(layouts)('an episode stored in an earlier layout (%s) mid-run resumes on first touch and ends with the same simulation', async (_label, rewrite, keys, tables) => {
    const reference = await onlySimulation(await startRun(body).then(async (id) => (await waitForRun(id), id)));

    // Right after the slow agent's turn is asked for, nothing reaches the object for a while: the storage is
    // rewritten then and the instance reset, as a deploy would.
    const { runId, key, steps } = await midEpisode(async (stub) => (await stub.pendingTurn())?.role === 'agent');
    const previous = await runInDurableObject(env.EPISODE.getByName(key), (_instance: EpisodeDO, state) => {
      rewrite(state.storage);
      return { keys: [...state.storage.kv.list()].map(([name]) => name).sort(), tables: tablesOf(state.storage.sql) };
    });
    expect(previous).toEqual({ keys, tables });
    await abortAllDurableObjects();

    const resumed = await env.EPISODE.getByName(key).snapshot();
    expect(resumed).toMatchObject({ phase: 'running', attempt: 1, done: false });
    expect(resumed.stepCount).toBeGreaterThanOrEqual(steps);
    // Moved, not copied: neither the key-value storage nor a table of the earlier layout holds anything of it.
    const after = await runInDurableObject(env.EPISODE.getByName(key), (_instance: EpisodeDO, state) => ({
      keys: [...state.storage.kv.list()].length,
      tables: tablesOf(state.storage.sql),
    }));
    expect(after).toEqual({ keys: 0, tables: ['episode'] });
    await runCheckNow(runId);

    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    expect(normalizedSimulation(await onlySimulation(runId))).toEqual(normalizedSimulation(reference));
  });
});
