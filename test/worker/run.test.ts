// A mock-domain run end to end against the scripted provider: API → RunDO fan-out → episode Durable
// Objects → D1 → results file, compared with what the core engine alone produces for the same script.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { ResultsSchema, SimulationRunSchema } from '../../src/core/schemas/simulation.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';
import { RunStatusEventSchema, SimulationEventSchema } from '../../src/api/index.ts';
import { runBatch } from '../../src/core/runner/batch.ts';
import { systemClock } from '../../src/core/orchestrator/clock.ts';
import { loadDomain } from '../../src/worker/data/domains.ts';
import { providerClient } from '../../src/worker/runs/models.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { scriptedRun } from './support/script.ts';
import { normalizedResults } from './support/normalize.ts';

const body = scriptedRun({ num_trials: 2, max_concurrency: 4 });

const coreResults = async (): Promise<Results> => {
  const config = RunConfigSchema.parse(body);
  const loaded = await loadDomain(env.ASSETS, config.domain);
  const client = providerClient(env);
  let n = 0;
  return runBatch(config, {
    ...loaded,
    clients: { agent: client, user: client, judge: client },
    clock: systemClock,
    newId: () => `core-${++n}`,
    sleep: async () => {},
    gitCommit: env.GIT_COMMIT,
  });
};

interface SseEvent {
  readonly event: string;
  readonly id: string | null;
  readonly data: unknown;
}

const readEvents = async (response: Response): Promise<SseEvent[]> => {
  const events: SseEvent[] = [];
  for (const block of (await response.text()).split('\n\n')) {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      const at = line.indexOf(':');
      if (at > 0) fields.set(line.slice(0, at), line.slice(at + 1).trimStart());
    }
    if (fields.has('data')) events.push({ event: fields.get('event') ?? 'message', id: fields.get('id') ?? null, data: JSON.parse(fields.get('data')!) });
  }
  return events;
};

describe('a mock-domain run through the API', () => {
  it('produces the results file the core engine produces for the same script, and streams its progress', async () => {
    const runId = await startRun(body);
    const events = readEvents(await call(`/v1/runs/${runId}/events`));
    const run = await waitForRun(runId);
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({ total: 20, pending: 0, running: 0, done: 20, infra_error: 0, cancelled: 0 });
    expect(run.counts.passed + run.counts.failed).toBe(20);
    expect(run.counts.passed).toBeGreaterThan(0);
    expect(run.counts.failed).toBeGreaterThan(0);

    const response = await call(`/v1/runs/${runId}/results`);
    expect(response.status).toBe(200);
    const results = ResultsSchema.parse(parsePyJson(await response.text()));
    const expected = await coreResults();
    expect(normalizedResults(results)).toEqual(normalizedResults(expected));

    expect(run.metrics['avg_reward']).toBeCloseTo(run.counts.passed / 20);
    expect(run.metrics['pass_hat_1']).toBeCloseTo(run.metrics['avg_reward']!);
    expect(run.metrics).toHaveProperty('pass_hat_2');

    const stream = await events;
    const finished = stream.filter((e) => e.event === 'simulation').map((e) => SimulationEventSchema.parse(e.data));
    expect(finished.map((e) => e.simulation_id).sort()).toEqual(results.simulations.map((s) => s.id).sort());
    const statuses = stream.filter((e) => e.event === 'status').map((e) => RunStatusEventSchema.parse(e.data).status);
    expect(statuses).toEqual(['running', 'completed']);

    // A reconnect with Last-Event-ID gets only what followed that event.
    const ids = stream.filter((e) => e.event === 'simulation').map((e) => e.id!);
    const resumed = await readEvents(await call(`/v1/runs/${runId}/events`, { headers: { 'last-event-id': ids[4]! } }));
    expect(resumed.filter((e) => e.event === 'simulation').map((e) => e.id)).toEqual(ids.slice(5));
    expect(resumed.filter((e) => e.event === 'status').map((e) => RunStatusEventSchema.parse(e.data).status)).toEqual(['completed']);

    const first = results.simulations[0]!;
    const simulation = SimulationRunSchema.parse(await pyBody(await call(`/v1/simulations/${first.id}`)));
    expect(simulation).toEqual(first);
    expect(simulation.messages!.length).toBeGreaterThan(2);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM messages WHERE simulation_id = ?').bind(first.id).first<{ n: number }>();
    expect(stored?.n).toBe(simulation.messages!.length);
  });
});

