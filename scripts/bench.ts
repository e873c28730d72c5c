// Benchmarks, for every registered domain whose data is present: memory held per live episode beyond the
// shared base DB, p50 time of one DB verdict, and the time of check-data over all the domain's tasks; for
// airline also the Episode object's CPU per step at the first and the 40th turn; then the step API's latency
// and concurrency on a local worker (bench-step-api.ts); a fork of a 40-turn airline episode into 8 continuations
// (bench-fork.ts); a provider-bound run on the default path and in process
// (bench-provider-bound.ts); the runtime's own CPU per object, call and fetch
// (bench-runtime.ts); for banking_knowledge, retrieval latency and index
// memory per retriever (bench-retrieval.ts); then the web viewer's page times on a 1,000-simulation run
// (bench-viewer.ts).
// Episodes are real: an environment with a task's gold actions applied. Run with `npm run bench`
// (node --expose-gc). Figures are printed, not asserted.
import { access } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { domains } from '../domains/registry.ts';
import { episodeDomain } from '../src/core/environment/episode-domain.ts';
import { dataDir, loadDomain } from '../src/cli/data.ts';
import type { LoadedDomain } from '../src/cli/data.ts';
import { Environment } from '../src/core/environment/environment.ts';
import { checkTask } from '../src/core/runner/check-data.ts';
import type { Task } from '../src/core/schemas/task.ts';
import { playGoldRun } from '../src/core/evaluator/gold-run.ts';
import { benchEpisodeSteps } from './bench-episode-steps.ts';
import { benchStepApi } from './bench-step-api.ts';
import { benchRuntime } from './bench-runtime.ts';
import { benchRetrieval, benchRetrievalConfigs } from './bench-retrieval.ts';
import { benchViewer } from './bench-viewer.ts';
import { benchProviderBound } from './bench-provider-bound.ts';
import { benchFork } from './bench-fork.ts';
import { median } from './bench-quantile.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');

const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const LIVE_EPISODES = 200;
const VERDICTS = 400;

/** An environment in the state a task's gold actions leave it (failing actions are skipped, as the evaluator does). */
const goldEpisode = (loaded: LoadedDomain, task: Task): Environment => {
  const { domain, data } = episodeDomain(loaded.domain, loaded.data, task, { retrievalConfig: null, retrievalConfigKwargs: null });
  const env = new Environment(domain, data, { now: () => '2026-01-01T00:00:00' });
  playGoldRun(env, task);
  return env;
};

const benchDomain = async (name: string): Promise<void> => {
  const before = heapUsed();
  const t0 = performance.now();
  const loaded = await loadDomain(name);
  const loadMs = performance.now() - t0;
  const baseBytes = heapUsed() - before;
  const { tasks } = loaded.data;
  const writing = tasks.filter((t) => (t.evaluation_criteria?.actions ?? []).length > 0);
  const pick = (i: number): Task => (writing.length > 0 ? writing : tasks)[i % (writing.length || tasks.length)]!;

  const start = heapUsed();
  const live: Environment[] = [];
  for (let i = 0; i < LIVE_EPISODES; i++) live.push(goldEpisode(loaded, pick(i)));
  const perEpisode = (heapUsed() - start) / LIVE_EPISODES;

  const verdictMs: number[] = [];
  for (let i = 0; i < VERDICTS; i++) {
    const predicted = goldEpisode(loaded, pick(i));
    const t = performance.now();
    predicted.dbMatches(live[i % LIVE_EPISODES]!);
    verdictMs.push(performance.now() - t);
  }

  const c0 = performance.now();
  let passed = 0;
  let counter = 0;
  let clockMs = Date.UTC(2026, 0, 1);
  for (const task of tasks) {
    const result = await checkTask(task, {
      ...loaded,
      clock: { nowMs: () => (clockMs += 1) },
      newId: () => `bench-${++counter}`,
      knownIssues: loaded.domain.knownIssues ?? {},
    });
    if (result.ok) passed++;
  }
  const checkSeconds = (performance.now() - c0) / 1000;

  console.log(
    `${name.padEnd(17)} base ${(baseBytes / 2 ** 20).toFixed(1)} MB parsed once (${loadMs.toFixed(0)} ms) | ` +
      `per live episode ${(perEpisode / 1024).toFixed(1)} KB beyond the base | ` +
      `DB verdict p50 ${median(verdictMs).toFixed(3)} ms | ` +
      `check-data ${tasks.length} tasks ${checkSeconds.toFixed(1)} s (${passed} ok)`,
  );
  live.length = 0;
  if (name === 'airline') console.log(await benchEpisodeSteps(loaded));
};

/** A domain is benchmarked when its data folder was fetched. */
const hasData = async (name: string): Promise<boolean> => {
  try {
    await access(path.join(dataDir(), 'domains', name.replace(/-workflow$/, '')));
    return true;
  } catch {
    return false;
  }
};

// `--only SECTION` runs one section: domains, retrieval, step-api, fork, provider-bound, runtime or viewer;
// `--open-episodes N` sizes the step-api section's last measure (10,000 episodes left open by default).
const SECTIONS = ['domains', 'retrieval', 'step-api', 'fork', 'provider-bound', 'runtime', 'viewer'] as const;
const { only, 'open-episodes': openEpisodes } = parseArgs({ options: { only: { type: 'string' }, 'open-episodes': { type: 'string' } } }).values;
if (openEpisodes !== undefined && !(Number.isSafeInteger(Number(openEpisodes)) && Number(openEpisodes) > 0)) throw new Error('--open-episodes takes a positive integer');
if (only !== undefined && !(SECTIONS as readonly string[]).includes(only)) throw new Error(`--only takes one of ${SECTIONS.join(', ')}`);
const runs = (section: (typeof SECTIONS)[number]): boolean => only === undefined || only === section;

console.log('tau2-edge benchmarks (targets: < 1 MB per live episode, <= 2 ms per DB verdict)');
if (runs('domains')) {
  for (const name of Object.keys(domains)) {
    if (await hasData(name)) await benchDomain(name);
  }
}
if (runs('retrieval') && (await hasData('banking_knowledge'))) {
  for (const line of await benchRetrieval()) console.log(line);
  for (const line of await benchRetrievalConfigs()) console.log(line);
}
if (runs('step-api') && (await hasData('mock'))) for await (const line of benchStepApi(await loadDomain('mock'), openEpisodes === undefined ? {} : { openEpisodes: Number(openEpisodes) })) console.log(line);
if (runs('fork') && (await hasData('airline'))) for (const line of await benchFork()) console.log(line);
if (runs('provider-bound') && (await hasData('mock'))) for (const line of await benchProviderBound()) console.log(line);
if (runs('runtime')) for (const line of await benchRuntime()) console.log(line);
if (runs('viewer')) for (const line of await benchViewer()) console.log(line);
