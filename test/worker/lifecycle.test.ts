// A run's lifecycle beyond the happy path: cancelling, infrastructure errors (excluded from metrics,
// never scored as agent failures) and re-running them.
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { ApiErrorSchema, RerunSchema, RunSchema } from '../../src/core/schemas/api.ts';
import { call, getRun, pyBody, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cancel', () => {
  it('stops pending and running episodes; finished simulations stay; nothing finishes afterwards', async () => {
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, max_concurrency: 1 }));
    const response = await call(`/v1/runs/${runId}/cancel`, { method: 'POST' });
    expect(response.status).toBe(200);
    const cancelled = RunSchema.parse(await pyBody(response));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.counts.pending).toBe(0);
    expect(cancelled.counts.running).toBe(0);
    expect(cancelled.counts.cancelled + cancelled.counts.done).toBe(10);
    expect(cancelled.counts.cancelled).toBeGreaterThanOrEqual(9);

    await sleep(1500);
    const later = await getRun(runId);
    expect(later.status).toBe('cancelled');
    expect(later.counts.done).toBe(cancelled.counts.done);

    const again = await call(`/v1/runs/${runId}/cancel`, { method: 'POST' });
    expect(again.status).toBe(200);
  });

  it('a completed run cannot be cancelled → 409 conflict', async () => {
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    await waitForRun(runId);
    const response = await call(`/v1/runs/${runId}/cancel`, { method: 'POST' });
    expect(response.status).toBe(409);
    expect(ApiErrorSchema.parse(await response.json()).error.code).toBe('conflict');
  });
});

describe('provider failures', () => {
  it('429 and 5xx answers are retried with backoff; the simulation is scored as usual', async () => {
    const run = await waitForRun(await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.flakyAgent, task_ids: ['create_task_1'] })));
    expect(run.counts).toMatchObject({ done: 1, passed: 1, infra_error: 0 });
  });
});

describe('infrastructure errors', () => {
  const body = scriptedRun({ llm_agent: SCRIPT_MODELS.brokenAgent, task_ids: ['create_task_1', 'update_task_1'], max_retries: 1, retry_delay: 0 });

  it('are recorded after every attempt failed, left out of the metrics, and can be re-run', async () => {
    const runId = await startRun(body);
    const run = await waitForRun(runId);
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({ total: 2, done: 2, passed: 0, failed: 0, infra_error: 2 });
    expect(run.metrics).toMatchObject({ total_simulations: 0, infra_error_count: 2, avg_reward: 0 });

    const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()));
    expect(results.simulations.map((s) => s.termination_reason)).toEqual(['infrastructure_error', 'infrastructure_error']);
    for (const s of results.simulations) {
      expect(s.reward_info).toBeNull();
      expect(s.info).toMatchObject({ failed_after_attempts: 2 });
    }

    const response = await call(`/v1/runs/${runId}/rerun-infra-errors`, { method: 'POST' });
    expect(response.status).toBe(202);
    expect(RerunSchema.parse(await response.json())).toEqual({ run_id: runId, status: 'running', rerun: 2 });
    const rerun = await waitForRun(runId);
    expect(rerun.counts).toMatchObject({ total: 2, done: 2, infra_error: 2 });
    const again = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()));
    const ids = (r: typeof results) => r.simulations.map((s) => s.id).sort();
    expect(ids(again)).not.toEqual(ids(results));
  });
});
