// The fan-out's recovery: an episode the run marked running but whose start never reached it (both objects
// reset in between, e.g. a restart of the runtime) is started by the run's recovery alarm, and the run completes;
// a simulation handed to the run and not yet written to D1 is written by that alarm.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RunDO } from '../../src/worker/runs/run-do.ts';
import { ApiKeyCreatedSchema } from '../../src/api/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { simulationRows } from '../../src/worker/db/simulations.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, TENANT_PROVIDER_KEY, scriptedRun } from './support/script.ts';

/** Marks the run's last pending episode running without starting it, as if its start was lost in a crash. */
const orphanLastPending = (runId: string): Promise<string> =>
  runInDurableObject(env.RUN.getByName(runId), (_instance: RunDO, state) => {
    const row = state.storage.sql.exec<{ key: string }>(`SELECT key FROM episodes WHERE status = 'pending' ORDER BY ord DESC LIMIT 1`).one();
    state.storage.sql.exec(`UPDATE episodes SET status = 'running' WHERE key = ?`, row.key);
    return row.key;
  });

describe('RunDO recovery', () => {
  it('starts an episode marked running that was never started, and the run completes', async () => {
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, max_concurrency: 1, task_ids: ['create_task_1', 'update_task_1'] }));
    const run = env.RUN.getByName(runId);
    // As if the run had marked its next episode running and then lost the start call in a crash.
    const orphan = await runInDurableObject(run, (_instance: RunDO, state) => {
      const row = state.storage.sql.exec<{ key: string }>(`SELECT key FROM episodes WHERE status = 'pending' ORDER BY ord LIMIT 1`).one();
      state.storage.sql.exec(`UPDATE episodes SET status = 'running' WHERE key = ?`, row.key);
      return row.key;
    });
    await abortAllDurableObjects();
    expect((await env.EPISODE.getByName(orphan).snapshot()).phase).toBeNull();
    expect(await runDurableObjectAlarm(env.RUN.getByName(runId))).toBe(true);
    expect((await env.EPISODE.getByName(orphan).snapshot()).phase).not.toBeNull();
    const finished = await waitForRun(runId);
    expect(finished.status).toBe('completed');
    expect(finished.counts).toMatchObject({ done: 2, running: 0, pending: 0, infra_error: 0 });
  });

  it("starts it for the run's tenant: its model calls carry the tenant's own provider key", async () => {
    const key = ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant: 'recovery-byo', name: 'recovery' } }))).key;
    const authorization = `Bearer ${key}`;
    const put = await call('/v1/provider-credentials/openai', {
      method: 'PUT', body: { base_url: env.OPENAI_BASE_URL, api_key: TENANT_PROVIDER_KEY }, headers: { authorization },
    });
    expect(put.status).toBe(200);
    // The scripted model answers only calls that carry the tenant's key: any other call fails its episode.
    const body = scriptedRun({ llm_agent: SCRIPT_MODELS.tenantAgent, max_concurrency: 1, num_trials: 2, task_ids: ['create_task_1', 'update_task_1'] });
    const runId = await startRun(body, { authorization });
    const orphan = await orphanLastPending(runId);
    await abortAllDurableObjects();
    expect(await runDurableObjectAlarm(env.RUN.getByName(runId))).toBe(true);
    expect((await env.EPISODE.getByName(orphan).snapshot()).phase).not.toBeNull();
    const finished = await waitForRun(runId, { apiKey: key });
    expect(finished.status).toBe('completed');
    expect(finished.counts).toMatchObject({ done: 4, running: 0, pending: 0, infra_error: 0 });
  });

  it('writes a simulation handed to it before a reset to D1 with its alarm, and completes only once it is written', async () => {
    const reference = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    await waitForRun(reference);
    const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${reference}/results`)).text()));
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, max_concurrency: 1, task_ids: ['create_task_1', 'update_task_1'] }));
    const simulation = { ...results.simulations[0]!, id: crypto.randomUUID() };
    const stored = (id: string) => env.DB.prepare('SELECT count(*) AS n FROM simulations WHERE id = ?').bind(id).first<{ n: number }>();
    // The running episode's simulation reaches the run, whose object is reset before it writes it.
    const run = env.RUN.getByName(runId);
    await runInDurableObject(run, async (instance: RunDO, state) => {
      const key = state.storage.sql.exec<{ key: string }>(`SELECT key FROM episodes WHERE status = 'running'`).one().key;
      await instance.episodeFinished(key, JSON.stringify(simulationRows(runId, simulation, new Date().toISOString())));
      state.abort('reset before the write');
    }).catch((error: Error) => expect(error.message).toContain('reset before the write'));
    expect((await stored(simulation.id))!.n).toBe(0);
    expect(await runDurableObjectAlarm(env.RUN.getByName(runId))).toBe(true);
    expect((await stored(simulation.id))!.n).toBe(1);
    const finished = await waitForRun(runId);
    expect(finished.status).toBe('completed');
    expect(finished.counts).toMatchObject({ done: 2, running: 0, pending: 0 });
  });
});
