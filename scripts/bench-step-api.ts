// The step API's cost on one local worker (workerd, real Durable Objects and D1), over its two transports: an
// OpenEnv WebSocket session and HTTP. p50 of one agent step (one episode at a time, next to the same step applied
// in-process by the engine), steps/s with 256 episodes stepped at once, then memory with 1,000 idle sessions
// (hibernated) and with 10,000 episodes created, stepped once and left open. Steps are mock `get_users` tool
// calls, whose turn comes straight back, so no model call is involved. A creation the worker refuses for capacity
// (503 `overloaded`: its bound on live objects, see src/worker/live-objects.ts) is sent again when it says.
import { readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { groupMemory, groupPids, startHarness } from '../test/support/load-harness.ts';
import type { Harness } from '../test/support/load-harness.ts';
import { sqliteStorage } from './bench-episode-steps.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import type { LoadedDomain } from '../src/cli/data.ts';
import type { EpisodeDeps } from '../src/core/orchestrator/deps.ts';
import { ApiRequestError } from '../src/client/index.ts';
import type { ApiClient } from '../src/client/index.ts';
import { EpisodeStore } from '../src/worker/episode/store.ts';
import { applyTurn, startEpisode } from '../src/core/episode/machine.ts';
import type { TurnResponse } from '../src/core/episode/turn.ts';
import { quantile } from './bench-quantile.ts';

const SEQUENTIAL_STEPS = 120;
const STEPS_PER_EPISODE = 30;
const CONCURRENT_EPISODES = 256;
const STEPS_AT_CONCURRENCY = 10;
const IDLE_SESSIONS = 1_000;
const OPEN_EPISODES = 10_000;
/**
 * How long idle objects are waited for to leave memory at most. The local runtime shuts an object down 10 s
 * after its last request and closes its storage once it has had no client for 70 s, checked every 70 s.
 */
const EVICTION_WAIT_MS = 240_000;

const EPISODE = { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' } as const;

const ms = (value: number): string => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

const getUsers = (n: number) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id: `call_${n}`, type: 'function' as const, function: { name: 'get_users', arguments: '{}' } }],
});

/** An OpenEnv error answer, with the step API's reason (e.g. `overloaded`). */
class SessionError extends Error {
  readonly reason: unknown;
  constructor(data: Record<string, unknown>) {
    super(`${String(data.code)}: ${String(data.message)}`);
    this.reason = data.reason;
  }
}

/** How long a session refused for capacity waits before it asks again (OpenEnv errors carry no Retry-After). */
const SESSION_RETRY_MS = 5_000;

/** Sends creations again while the worker refuses them for capacity, counting the refusals waited out. */
class Admission {
  waits = 0;

  async run<T>(attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        const waitMs =
          error instanceof ApiRequestError && error.code === 'overloaded' ? (error.retryAfterSeconds ?? 1) * 1000
          : error instanceof SessionError && error.reason === 'overloaded' ? SESSION_RETRY_MS
          : null;
        if (waitMs === null) throw error;
        this.waits++;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }
}

/** An OpenEnv session from Node's WebSocket: each `ask` sends a message and resolves with its answer. */
class Session {
  private readonly answers: ((data: { type: string; data: Record<string, unknown> }) => void)[] = [];
  private readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.addEventListener('message', (event) => this.answers.shift()?.(JSON.parse(String(event.data))));
  }

  static open(url: string): Promise<Session> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/openenv/ws`);
    return new Promise((resolve, reject) => {
      ws.addEventListener('open', () => resolve(new Session(ws)), { once: true });
      ws.addEventListener('error', () => reject(new Error('the session did not open')), { once: true });
    });
  }

  async ask(message: unknown): Promise<Record<string, unknown>> {
    const answer = new Promise<{ type: string; data: Record<string, unknown> }>((resolve) => this.answers.push(resolve));
    this.ws.send(JSON.stringify(message));
    const { type, data } = await answer;
    if (type === 'error') throw new SessionError(data);
    return data;
  }

  close(): void {
    this.ws.close(1000);
  }
}

interface Transport {
  /** Starts an episode; `step(n)` applies the agent's n-th step and resolves once it is answered. */
  start(steps: number): Promise<{ step: (n: number) => Promise<void>; close: () => void }>;
}

const httpTransport = (client: ApiClient, admission: Admission): Transport => ({
  async start(steps) {
    const { episode_id } = await admission.run(() => client.createEpisode({ ...EPISODE, max_steps: 4 * steps }));
    return { step: async (n) => void (await client.step(episode_id, n, getUsers(n))), close: () => undefined };
  },
});

const webSocketTransport = (url: string, admission: Admission): Transport => ({
  async start(steps) {
    const session = await Session.open(url);
    await admission.run(() => session.ask({ type: 'reset', data: { ...EPISODE, max_steps: 4 * steps } }));
    return { step: async (n) => void (await session.ask({ type: 'step', data: { message: getUsers(n) } })), close: () => session.close() };
  },
});

/** Steps a new episode `steps` times, returning each step's latency. */
const timedSteps = async (transport: Transport, steps: number): Promise<number[]> => {
  const episode = await transport.start(steps);
  const latencies: number[] = [];
  for (let n = 0; n < steps; n++) {
    const start = performance.now();
    await episode.step(n);
    latencies.push(performance.now() - start);
  }
  episode.close();
  return latencies;
};

/** Episodes started at once: starting is not what is measured, and a burst of starts on a loaded machine outlasts their wait. */
const STARTS_AT_ONCE = 16;

/** Steps/s with `episodes` episodes, each stepped STEPS_AT_CONCURRENCY times, all at once. */
const throughput = async (transport: Transport, episodes: number): Promise<number> => {
  const start = pLimit(STARTS_AT_ONCE);
  const started = await Promise.all(Array.from({ length: episodes }, () => start(() => transport.start(STEPS_AT_CONCURRENCY))));
  const t0 = performance.now();
  await Promise.all(started.map(async (episode) => {
    for (let n = 0; n < STEPS_AT_CONCURRENCY; n++) await episode.step(n);
  }));
  const seconds = (performance.now() - t0) / 1000;
  for (const episode of started) episode.close();
  return (episodes * STEPS_AT_CONCURRENCY) / seconds;
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

/** The runtime's workerd process. */
const workerdPid = async (harness: Harness): Promise<number> => {
  const [pid] = await groupPids(harness.worker().pid, 'workerd');
  if (pid === undefined) throw new Error('the local runtime has no workerd process');
  return pid;
};

/** Resident memory of the runtime's workerd process. */
const workerdBytes = async (harness: Harness): Promise<number> => (await groupMemory(harness.worker().pid)).get('workerd') ?? 0;

/**
 * Durable Objects the runtime holds, by class: each holds its SQLite database open while it is in memory (and
 * closes it once evicted), so its open database files count them.
 */
const objectsHeld = async (pid: number): Promise<Map<string, number>> => {
  const byClass = new Map<string, number>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const match = /\/do\/[^/]*-(\w+DO)\/[0-9a-f]+\.sqlite$/.exec(target);
    if (match) byClass.set(match[1]!, (byClass.get(match[1]!) ?? 0) + 1);
  }
  return byClass;
};

const heldText = (held: Map<string, number>): string =>
  held.size === 0 ? 'no objects held' : [...held].map(([name, n]) => `${n} ${name}`).join(', ') + ' held';

/** The classes of the objects a session and its episode make. */
const SESSION_CLASSES = ['OpenEnvSessionDO', 'EpisodeDO', 'RunDO'] as const;

/**
 * Waits until the runtime holds no object of `classes` (they were evicted), up to EVICTION_WAIT_MS; answers the
 * seconds waited and the objects held then.
 */
const untilEvicted = async (pid: number, classes: readonly string[]): Promise<{ seconds: number; held: Map<string, number> }> => {
  const t0 = performance.now();
  let held = await objectsHeld(pid);
  while (classes.some((name) => held.has(name)) && performance.now() - t0 < EVICTION_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    held = await objectsHeld(pid);
  }
  return { seconds: (performance.now() - t0) / 1000, held };
};

/** Bytes of the runtime's state directory: Durable Object storage and D1, where idle episodes live. */
const stateBytes = async (dir: string): Promise<number> => {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true })) {
    const info = await stat(path.join(dir, entry)).catch(() => null);
    if (info?.isFile()) total += info.size;
  }
  return total;
};

async function* memoryLines(harness: Harness, client: ApiClient, admission: Admission, openEpisodes: number): AsyncGenerator<string> {
  const url = harness.worker().url;
  const pid = await workerdPid(harness);
  // From a runtime holding none of the objects the measures before made.
  await untilEvicted(pid, SESSION_CLASSES);
  const before = await workerdBytes(harness);
  const openSessions = async (): Promise<Session[]> => {
    const sessions = await Promise.all(Array.from({ length: IDLE_SESSIONS }, () => Session.open(url)));
    const reset = pLimit(STARTS_AT_ONCE);
    await Promise.all(sessions.map((s) => reset(() => admission.run(() => s.ask({ type: 'reset', data: EPISODE })))));
    return sessions;
  };
  const sessions = await openSessions();
  const open = await workerdBytes(harness);
  const heldOpen = await objectsHeld(pid);
  const waited = await untilEvicted(pid, SESSION_CLASSES);
  const idle = await workerdBytes(harness);
  // Still open after hibernation: a session answers from its attachment.
  const state = await sessions[0]!.ask({ type: 'state' });
  // The freed memory is the runtime's to reuse: as many sessions again, opened now, add little.
  const more = await openSessions();
  const again = await workerdBytes(harness);
  for (const s of [...sessions, ...more]) s.close();
  yield (
    `memory, ${IDLE_SESSIONS} idle open sessions (each reset to an episode): workerd ${mb(before)} before, ${mb(open)} once open ` +
      `(${heldText(heldOpen)}); after ${waited.seconds.toFixed(0)} s idle ${mb(idle)} (${heldText(waited.held)}: hibernated and evicted; ` +
      `a session still answers: step_count ${String(state.step_count)}); ${IDLE_SESSIONS} more sessions then: ${mb(again)}`
  );

  const samples: string[] = [];
  const waitsBefore = admission.waits;
  const limit = pLimit(STARTS_AT_ONCE);
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: openEpisodes }, () =>
      limit(async () => {
        const { episode_id } = await admission.run(() => client.createEpisode({ ...EPISODE, max_steps: 8 }));
        await client.step(episode_id, 0, getUsers(0));
        done++;
        if (done % Math.max(1, Math.floor(openEpisodes / 4)) === 0) {
          const held = (await objectsHeld(pid)).get('EpisodeDO') ?? 0;
          samples.push(`${done} (${((performance.now() - t0) / 1000).toFixed(0)} s): ${mb(await workerdBytes(harness))}, ${held} episode objects held`);
        }
      }),
    ),
  );
  const settled = await untilEvicted(pid, ['EpisodeDO', 'RunDO']);
  const idleBytes = await workerdBytes(harness);
  yield (
    `memory, ${openEpisodes} episodes created, stepped once and left open (${admission.waits - waitsBefore} creations refused for ` +
      `capacity, 503 overloaded, and sent again after Retry-After): workerd ${samples.join('; ')}; ` +
      `after ${settled.seconds.toFixed(0)} s idle ${mb(idleBytes)} (${heldText(settled.held)}); ` +
      `the runtime's state directory holds ${mb(await stateBytes(harness.stateDir))} (Durable Object storage and D1)`
  );
}

/** The section's lines, each as soon as it is measured. */
export async function* benchStepApi(loaded: LoadedDomain, { openEpisodes = OPEN_EPISODES } = {}): AsyncGenerator<string> {
  const harness = await startHarness(mockConversation());
  try {
    const client = harness.client();
    const admission = new Admission();
    const http = httpTransport(client, admission);
    const ws = webSocketTransport(harness.worker().url, admission);
    // Warm-up: the worker's first requests load its code and data.
    await timedSteps(http, 2);
    await timedSteps(ws, 2);
    const httpSteps: number[] = [];
    const wsSteps: number[] = [];
    // Alternating episodes, so that both transports meet the same load of the machine.
    while (httpSteps.length < SEQUENTIAL_STEPS) {
      httpSteps.push(...(await timedSteps(http, STEPS_PER_EPISODE)));
      wsSteps.push(...(await timedSteps(ws, STEPS_PER_EPISODE)));
    }
    const local = await inProcessSteps(loaded, SEQUENTIAL_STEPS);
    const [wsP50, httpP50] = [quantile(wsSteps, 0.5), quantile(httpSteps, 0.5)];
    yield (
      `step p50: websocket ${ms(wsP50)}, http ${ms(httpP50)} (${ratio(httpP50, wsP50)} faster over websocket; p99 websocket ${ms(quantile(wsSteps, 0.99))}, ` +
        `http ${ms(quantile(httpSteps, 0.99))}; the in-process engine ${ms(quantile(local, 0.5))})`
    );
    const httpRate = await throughput(http, CONCURRENT_EPISODES);
    const wsRate = await throughput(ws, CONCURRENT_EPISODES);
    yield `steps/s with ${CONCURRENT_EPISODES} episodes: websocket ${wsRate.toFixed(0)}, http ${httpRate.toFixed(0)} (${ratio(wsRate, httpRate)})`;
    yield* memoryLines(harness, client, admission, openEpisodes);
  } finally {
    await harness.close();
  }
}
