// GET /v1/compare: two of the caller's runs paired on the tasks both evaluated, the same figures the core computes
// from their results; a bad query is a 400 naming the field. GET /v1/runs/:id carries the metrics' error bars.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema, CompareSchema, RunSchema } from '../../src/api/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';
import { pairedComparison } from '../../src/core/metrics/paired-comparison.ts';
import { runErrorBars } from '../../src/core/metrics/error-bars.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import { simulationRows, writeSimulations } from '../../src/worker/db/simulations.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { scriptedRun } from './support/script.ts';

const A = { t1: [1, 0, 1, 1], t2: [0, 0, 0, 0], t3: [1, 1, 1, 1], t4: [0, 1, 0, 0], t5: [1, 1, 0, 1] };
const B = { t1: [1, 1, 1, 1], t2: [1, 1, 1, 1], t3: [1, 1, 1, 1], t4: [1, 1, 0, 1], t5: [1, 1, 1, 1], t9: [1] };

const results = async (runId: string) => ResultsSchema.parse(await pyBody(await call(`/v1/runs/${runId}/results?messages=false`)));

/** A finished run of the mock domain, with simulations of the given rewards added to its own. */
const runWith = async (rewards: Record<string, number[]>): Promise<string> => {
  const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
  await waitForRun(runId);
  const [first] = (await results(runId)).simulations as [SimulationRun];
  const added = Object.entries(rewards).flatMap(([taskId, trials]) =>
    trials.map((reward, trial) => ({ ...first, id: `${runId}-${taskId}-${trial}`, task_id: taskId, trial, reward_info: { ...first.reward_info!, reward: pyFloat(reward) } })),
  );
  await writeSimulations(env.DB, added.map((s) => simulationRows(runId, s, new Date().toISOString())));
  return runId;
};

let a: string;
let b: string;

beforeAll(async () => {
  [a, b] = [await runWith(A), await runWith(B)];
}, 60_000);

describe('GET /v1/compare', () => {
  it('answers the paired comparison of the two runs on their shared tasks', async () => {
    const response = await call(`/v1/compare?a=${a}&b=${b}`);
    expect(response.status).toBe(200);
    const body = CompareSchema.parse(await pyBody(response));
    const expected = pairedComparison((await results(a)).simulations, (await results(b)).simulations);
    expect(body).toEqual({ a, b, ...expected });
    expect(body.shared_tasks).toBe(6);
    expect(body.only_b).toEqual(['t9']);
    expect(body.improved.map((t) => t.task_id)).toEqual(['t2']);
  });

  it('a missing or oversized run id → 400 naming the field, an unknown run → 404 naming it', async () => {
    for (const [query, field] of [[`a=${a}`, 'b'], [`b=${b}`, 'a'], [`a=${a}&b=${'x'.repeat(300)}`, 'b']] as const) {
      const response = await call(`/v1/compare?${query}`);
      expect(response.status).toBe(400);
      expect(ApiErrorSchema.parse(await response.json()).error.issues?.map((i) => i.path)).toContain(field);
    }
    const unknown = await call(`/v1/compare?a=${a}&b=nope`);
    expect(unknown.status).toBe(404);
    expect(ApiErrorSchema.parse(await unknown.json()).error.message).toContain('nope');
  });
});

describe('GET /v1/runs/:id', () => {
  it('carries the error bars of its metrics', async () => {
    const run = RunSchema.parse(await pyBody(await call(`/v1/runs/${a}`)));
    expect(run.error_bars).toEqual(runErrorBars((await results(a)).simulations));
    expect(run.error_bars!.avg_reward.tasks).toBe(6);
    expect(run.error_bars!.pass_hat_ks.find((p) => p.k === 4)!.tasks_left_out).toBe(1);
  });
});
