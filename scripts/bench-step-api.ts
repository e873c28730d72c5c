// The step API's cost: latency of one agent step over HTTP on a local worker (workerd, real Durable
// Objects and D1), next to the same step applied in-process by the engine (apply + persist on an in-memory
// SQLite store); then how many episodes one local worker steps at once — steps/s and latency as the number of
// concurrently stepped episodes grows. Steps are mock `get_users` tool calls, so no model call is involved.
import { startHarness } from './load-harness.ts';
import { sqliteStorage } from './bench-episode-steps.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import type { LoadedDomain } from '../src/cli/data.ts';
import type { EpisodeDeps } from '../src/core/orchestrator/deps.ts';
import type { ApiClient } from '../src/client/index.ts';
import { EpisodeStore } from '../src/worker/episode/store.ts';
import { applyTurn, startEpisode } from '../src/worker/episode/machine.ts';
import type { TurnResponse } from '../src/worker/episode/turn.ts';
import { quantile } from './bench-quantile.ts';

const SEQUENTIAL_STEPS = 120;
const STEPS_PER_EPISODE = 30;
const CONCURRENCY = [1, 8, 32, 64] as const;
const STEPS_AT_CONCURRENCY = 10;

const ms = (value: number): string => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
const percentiles = (samples: readonly number[]): string => `p50 ${ms(quantile(samples, 0.5))}, p99 ${ms(quantile(samples, 0.99))}`;

const getUsers = (n: number) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id: `call_${n}`, type: 'function' as const, function: { name: 'get_users', arguments: '{}' } }],
});

const createEpisode = async (client: ApiClient, steps: number): Promise<string> =>
  (await client.createEpisode({ domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user', max_steps: 4 * steps })).episode_id;

/** Steps the episode `steps` times, returning each step's latency. */
const stepEpisode = async (client: ApiClient, episodeId: string, steps: number): Promise<number[]> => {
  const latencies: number[] = [];
  for (let n = 0; n < steps; n++) {
    const start = performance.now();
    await client.step(episodeId, n, getUsers(n));
    latencies.push(performance.now() - start);
  }
  return latencies;
};

/** The same step in-process: the engine applies the agent's tool call and persists it. */
const inProcessSteps = async (loaded: LoadedDomain, count: number): Promise<number[]> => {
  const task = loaded.data.tasks.find((t) => t.id === 'create_task_1')!;
  let clockMs = Date.UTC(2026, 0, 1);
  const model = { client: { generate: () => Promise.reject(new Error('turns are scripted')) }, model: 'bench', llmArgs: {} };
  const deps: EpisodeDeps = { ...loaded, agentModel: model, userModel: model, clock: { nowMs: () => (clockMs += 1) } };
  const answer = (content: string | null, calls: TurnResponse['tool_calls'] = []): TurnResponse => ({ kind: 'response', content, tool_calls: calls });
  const samples: number[] = [];
  for (let e = 0; samples.length < count; e++) {
    const store = new EpisodeStore(sqliteStorage());
    const live = await startEpisode({ simulationId: `bench-${e}`, task, agent: 'external', trial: 0, seed: 300, maxSteps: 1000 }, deps);
    store.save(await applyTurn(live, answer('Hi, could you list the users?'), deps));
    for (let n = 0; n < STEPS_PER_EPISODE && samples.length < count; n++) {
      const start = performance.now();
      store.save(await applyTurn(live, answer(null, [{ id: `call_${n}`, name: 'get_users', arguments: '{}' }]), deps));
      samples.push(performance.now() - start);
    }
  }
  return samples;
};

export const benchStepApi = async (loaded: LoadedDomain): Promise<string[]> => {
  const harness = await startHarness(mockConversation());
  try {
    const client = harness.client();
    await stepEpisode(client, await createEpisode(client, 2), 2); // warm-up: the worker's first requests load its code and data
    const http: number[] = [];
    while (http.length < SEQUENTIAL_STEPS) http.push(...(await stepEpisode(client, await createEpisode(client, STEPS_PER_EPISODE), STEPS_PER_EPISODE)));
    const local = await inProcessSteps(loaded, SEQUENTIAL_STEPS);
    const lines = [
      `step API, one episode at a time (${http.length} mock tool-call steps): over HTTP ${percentiles(http)} | ` +
        `in-process engine ${percentiles(local)} | added by the API ${ms(quantile(http, 0.5) - quantile(local, 0.5))} at p50`,
    ];
    for (const episodes of CONCURRENCY) {
      const ids = await Promise.all(Array.from({ length: episodes }, () => createEpisode(client, STEPS_AT_CONCURRENCY)));
      const start = performance.now();
      const latencies = (await Promise.all(ids.map((id) => stepEpisode(client, id, STEPS_AT_CONCURRENCY)))).flat();
      const seconds = (performance.now() - start) / 1000;
      lines.push(
        `step API, ${String(episodes).padStart(2)} episodes stepped at once by one local worker: ` +
          `${(latencies.length / seconds).toFixed(0)} steps/s, ${percentiles(latencies)}`,
      );
    }
    return lines;
  } finally {
    await harness.close();
  }
};
