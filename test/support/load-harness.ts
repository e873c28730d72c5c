// The harness of the load and fault scripts and of the tests that drive a local worker: a fake provider and a
// local worker (started with the CLI's own code) wired together, runs followed to their end, the runtime's memory,
// and the checks every script makes — each episode exactly once, and results that compare equal once ids, times
// and raw provider data are set aside.
import { mkdtemp, readdir, readFile, rm, stat, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dumpsPy } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import type { RunConfig, RunConfigInput } from '../../src/core/schemas/run-config.ts';
import type { RunStatus, SimulationEvent } from '../../src/api/index.ts';
import type { Results, SimulationRun } from '../../src/core/schemas/simulation.ts';
import { runTasks } from '../../src/core/runner/batch.ts';
import { loadDomain } from '../../src/cli/data.ts';
import { apiClient } from '../../src/client/index.ts';
import type { ApiClient } from '../../src/client/index.ts';
import { followRun } from '../../src/cli/run/follow-run.ts';
import { localCredentialsKey, startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { localWorkerEnv } from '../../src/cli/run/remote.ts';
import { startFakeOpenAI } from './fake-openai.ts';
import type { FakeHandler, FakeOpenAI } from './fake-openai.ts';

export interface Harness {
  /** The runtime's state directory (deleted by `close`). */
  readonly stateDir: string;
  readonly fake: FakeOpenAI;
  readonly client: () => ApiClient;
  readonly worker: () => LocalWorker;
  /** Starts the worker again on the same port and state (after `kill`). */
  restart(): Promise<void>;
  /** `kill -9` of the whole runtime: its Node process and workerd. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

const RAM_FS = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;

/**
 * Where a harness keeps its runtime's state, which it deletes when it closes: a RAM file system when the
 * machine has one. The local runtime commits every Durable Object and D1 write with fsync; on a slow disk that
 * costs as much of the run's time as the Worker's own work, which a deployed Worker never pays, and state thrown
 * away at the end needs no disk.
 */
export const defaultStateRoot = async (): Promise<string> => ((await stat(RAM_FS).catch(() => null))?.isDirectory() ? RAM_FS : tmpdir());

/** `tmpfs` or `disk`: what the runtime's state is written to. */
export const storageKind = async (dir: string): Promise<'tmpfs' | 'disk'> => ((await statfs(dir)).type === TMPFS_MAGIC ? 'tmpfs' : 'disk');

export interface HarnessOptions {
  /** Overrides of the worker's variables. */
  readonly workerVars?: Record<string, string>;
  /** Where the runtime's state directory is created (default: `defaultStateRoot()`). */
  readonly stateRoot?: string;
  /** Opens the Worker's DevTools inspector (to profile it). */
  readonly inspector?: boolean;
  /** Where the runtime's tail Worker posts each invocation's limit-counted calls (scripts/limits/trace.ts). */
  readonly limitsTraceUrl?: string;
}

export const startHarness = async (handler: FakeHandler, { workerVars = {}, stateRoot, inspector = false, limitsTraceUrl }: HarnessOptions = {}): Promise<Harness> => {
  const fake = await startFakeOpenAI();
  fake.setHandler(handler);
  const stateDir = await mkdtemp(path.join(stateRoot ?? (await defaultStateRoot()), 'tau2-edge-load-'));
  const options = {
    persistTo: path.join(stateDir, 'state'),
    logFile: path.join(stateDir, 'worker.log'),
    inspector,
    ...(limitsTraceUrl === undefined ? {} : { limitsTraceUrl }),
    // Building the bundle takes longer on a busy machine; a script waits rather than fails.
    readyTimeoutMs: 180_000,
    env: { ...localWorkerEnv(fake.baseURL, {}, 'load-script', await localCredentialsKey(stateDir)), ...workerVars },
  };
  let worker = await startLocalWorker(options);
  const port = worker.port;
  return {
    stateDir,
    fake,
    client: () => apiClient(worker.url),
    worker: () => worker,
    async restart() {
      worker = await startLocalWorker({ ...options, port });
    },
    kill: () => worker.stop('SIGKILL'),
    async close() {
      await worker.stop();
      await fake.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
};

/** The run configuration of a script: mock tasks, the fake provider's model names. */
export const mockRun = (input: Omit<RunConfigInput, 'domain'>): RunConfig =>
  RunConfigSchema.parse({ domain: 'mock', llm_agent: 'fake-agent', llm_user: 'fake-user', llm_judge: 'fake-judge', retry_delay: 0, ...input });

/**
 * The mock tasks the fake conversation can be scored on: all of the base split but
 * `create_task_1_with_env_assertions`, whose assertion fails on a task the fake agent never creates.
 */
export const scorableMockTasks = async (): Promise<string[]> => {
  const { data } = await loadDomain('mock');
  return runTasks(mockRun({}), data)
    .map((t) => t.id)
    .filter((id) => id !== 'create_task_1_with_env_assertions');
};

export const episodeKey = (sim: Pick<SimulationRun, 'task_id' | 'trial'>): string => `${sim.task_id}#${sim.trial}`;

/** Every episode a run must produce, in trial-major order. */
export const expectedEpisodes = (config: RunConfig): string[] =>
  Array.from({ length: config.num_trials }, (_, trial) => (config.task_ids ?? []).map((task_id) => episodeKey({ task_id, trial }))).flat();

export interface Completeness {
  readonly lost: string[];
  readonly duplicated: string[];
  readonly unexpected: string[];
}

export const completeness = (expected: readonly string[], simulations: readonly SimulationRun[]): Completeness => {
  const counts = new Map<string, number>();
  for (const sim of simulations) counts.set(episodeKey(sim), (counts.get(episodeKey(sim)) ?? 0) + 1);
  const wanted = new Set(expected);
  return {
    lost: expected.filter((key) => !counts.has(key)),
    duplicated: [...counts].filter(([, n]) => n > 1).map(([key]) => key),
    unexpected: [...counts.keys()].filter((key) => !wanted.has(key)),
  };
};

/** What must be the same between two runs of one script: outcome, reward checks and the conversation. */
const comparable = (sim: SimulationRun): string =>
  dumpsPy({
    termination_reason: sim.termination_reason,
    reward_info: sim.reward_info,
    messages: (sim.messages ?? []).map((m) => {
      const { timestamp: _t, ...rest } = m as Record<string, unknown>;
      delete rest['generation_time_seconds'];
      delete rest['raw_data'];
      return rest;
    }),
  } as unknown as PyValue);

/** Episodes whose simulation differs between two runs (or exists in one only). */
export const differences = (a: readonly SimulationRun[], b: readonly SimulationRun[]): string[] => {
  const byKey = (sims: readonly SimulationRun[]) => new Map(sims.map((s) => [episodeKey(s), comparable(s)]));
  const left = byKey(a);
  const right = byKey(b);
  return [...new Set([...left.keys(), ...right.keys()])].filter((key) => left.get(key) !== right.get(key)).sort();
};

/** A run followed to its final status. */
export interface EndedRun {
  readonly runId: string;
  readonly status: RunStatus;
  /** Simulation events received (an event repeated after a reconnect counts again). */
  readonly events: SimulationEvent[];
  /** From the run's creation to its final status (a completed run has every simulation in D1), as the client saw it. */
  readonly seconds: number;
  /**
   * The same span by the run's own record (created_at to updated_at, the Worker's clock): without the client's
   * request and the up to 500 ms (POLL_MS) its event stream takes to see the final status.
   */
  readonly recordedSeconds: number;
}

export interface FinishedRun extends EndedRun {
  readonly results: Results;
  /** Reading the results back afterwards. */
  readonly resultsSeconds: number;
}

/** Creates a run and follows it to its final status. */
export const followToEnd = async (
  harness: Harness,
  config: RunConfig,
  onSimulation: (event: SimulationEvent, events: number) => void | Promise<void> = () => {},
): Promise<EndedRun> => {
  const started = performance.now();
  // A restarted worker listens on the same port, so this client reaches it too.
  const client = harness.client();
  const { run_id: runId } = await client.createRun(config);
  const events: SimulationEvent[] = [];
  const status = await followRun(client, runId, {
    onSimulation: (event) => {
      events.push(event);
      void onSimulation(event, events.length);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const record = await client.run(runId);
  return { runId, status, events, seconds, recordedSeconds: (Date.parse(record.updated_at) - Date.parse(record.created_at)) / 1000 };
};

/** Reads an ended run's results back, timed. */
export const readResults = async (harness: Harness, ended: EndedRun): Promise<FinishedRun> => {
  const started = performance.now();
  const results = await harness.client().results(ended.runId);
  return { ...ended, results, resultsSeconds: (performance.now() - started) / 1000 };
};

/** Creates a run, follows it to its final status and reads its results back. */
export const runToEnd = async (
  harness: Harness,
  config: RunConfig,
  onSimulation?: (event: SimulationEvent, events: number) => void | Promise<void>,
): Promise<FinishedRun> => readResults(harness, await followToEnd(harness, config, onSimulation));

/** A process group's processes (Linux /proc): pid, command name and the fields of /proc/PID/stat after it. */
const groupProcesses = async (pgid: number): Promise<{ pid: number; name: string; fields: string[] }[]> => {
  const found = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      if (Number(fields[2]) === pgid) found.push({ pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, close), fields });
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
};

/** The pids of a process group's processes named `name`. */
export const groupPids = async (pgid: number, name: string): Promise<number[]> =>
  (await groupProcesses(pgid)).filter((p) => p.name === name).map((p) => p.pid);

/** Resident memory of a process group's processes, by command name. */
export const groupMemory = async (pgid: number): Promise<Map<string, number>> => {
  const byName = new Map<string, number>();
  for (const { name, fields } of await groupProcesses(pgid)) byName.set(name, (byName.get(name) ?? 0) + Number(fields[21]) * 4096);
  return byName;
};

/** CPU seconds (user, system) used so far by a process group's processes named `name`. */
export const groupCpuSeconds = async (pgid: number, name: string): Promise<{ user: number; system: number }> => {
  let user = 0;
  let system = 0;
  for (const { fields } of (await groupProcesses(pgid)).filter((p) => p.name === name)) {
    user += Number(fields[11]);
    system += Number(fields[12]);
  }
  // USER_HZ is 100 on Linux.
  return { user: user / 100, system: system / 100 };
};

/** Samples the runtime's memory until stopped; reports the peak of workerd and of the whole group. */
export const memorySampler = (pgid: () => number, everyMs = 250) => {
  let peakWorkerd = 0;
  let peakTotal = 0;
  const timer = setInterval(() => {
    void groupMemory(pgid()).then((byName) => {
      const workerd = byName.get('workerd') ?? 0;
      const total = [...byName.values()].reduce((a, b) => a + b, 0);
      peakWorkerd = Math.max(peakWorkerd, workerd);
      peakTotal = Math.max(peakTotal, total);
    });
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakWorkerdMb: peakWorkerd / 2 ** 20, peakTotalMb: peakTotal / 2 ** 20 };
    },
  };
};

/** Prints a check and remembers whether it failed; `exitCode()` is non-zero when any did. */
export const checklist = () => {
  let failed = 0;
  return {
    check(ok: boolean, label: string, detail = ''): void {
      if (!ok) failed++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}${detail ? `: ${detail}` : ''}`);
    },
    exitCode: () => (failed === 0 ? 0 : 1),
  };
};

export const sample = (keys: readonly string[], n = 5): string => (keys.length <= n ? keys.join(', ') : `${keys.slice(0, n).join(', ')} … (${keys.length})`);
