// A run's lifecycle beyond the happy path: cancelling, infrastructure errors (excluded from metrics,
// never scored as agent failures) and re-running them.
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { ApiErrorSchema, RerunSchema, RunSchema } from '../../src/api/index.ts';
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

  it("a connection closed before the answer (workerd's `Network connection lost.`) is retried; the simulation is scored as usual", async () => {
    const run = await waitForRun(await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.droppingAgent, task_ids: ['create_task_1'] })));
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
      // HTTP 400 is a refusal: another attempt would only repeat it, so none is made.
      expect(s.info).toMatchObject({ failed_after_attempts: 1 });
    }
    expect(run.infra_errors).toEqual([{ reason: expect.stringMatching(/HTTP 400: scripted: this model always fails/), count: 2, task_ids: expect.arrayContaining(['create_task_1', 'update_task_1']) }]);

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

describe('provider refusals', () => {
  it('a 401 (wrong key) stops the run at once: failed with the provider\'s message, what finished kept, the rest cancelled', async () => {
    // The operator's key is refused for this model (HTTP 401).
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.tenantAgent, max_concurrency: 1 }));
    const run = await waitForRun(runId);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The provider refused: .*HTTP 401: scripted: this model takes the tenant key only/);
    expect(run.counts).toMatchObject({ total: 10, done: 1, infra_error: 1, pending: 0, running: 0, cancelled: 9 });
    expect(run.infra_errors).toEqual([{ reason: expect.stringMatching(/HTTP 401/), count: 1, task_ids: [expect.any(String)] }]);
    const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()));
    expect(results.simulations.map((s) => s.info?.['failed_after_attempts'])).toEqual([1]);
  });

  it('the same other refusal (HTTP 400) on three tasks with no success stops the run', async () => {
    const run = await waitForRun(await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.brokenAgent, max_concurrency: 1, retry_delay: 0 })));
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The provider refused: .*HTTP 400/);
    expect(run.counts).toMatchObject({ total: 10, done: 3, infra_error: 3, cancelled: 7 });
  });

  it('a run reports its peak of model calls in flight, within the provider cap', async () => {
    const run = await waitForRun(await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1', 'update_task_1', 'update_task_with_initialization_data'], max_concurrency: 3 })));
    expect(run.status).toBe('completed');
    expect(run.peak_calls_in_flight).toBeGreaterThanOrEqual(2);
    expect(run.peak_calls_in_flight).toBeLessThanOrEqual(3);
  });
});
