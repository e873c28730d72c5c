// Load: the same mock episodes through the local Worker and in-process (the core engine in this Node
// process), both against an instant fake provider. Prints episodes/minute of each and their ratio, workerd's
// memory at 1k/5k/10k finished episodes and its peak; fails on any lost or duplicated simulation, or on a
// simulation scored differently by the two paths. The Worker's time is its run's own, from its creation to its
// completion (every simulation in D1) by the run's record, as the in-process time ends with the simulations in
// memory; the time the client saw (its requests and event stream included) and reading the results back over
// the API are printed apart.
// With --profile FILE, the Worker's isolate is profiled during its run (written to FILE, a .cpuprofile for
// DevTools) and the functions taking the most time per episode are printed; profiling slows the Worker, so
// the ratio of such a run is not the figure.
// The runtime's state lives on a RAM file system when the machine has one (see defaultStateRoot); --state-dir
// puts it elsewhere, e.g. on disk, where every commit's fsync is part of the figure.
// Usage: npm run load [-- --episodes 1000 --concurrency 32 --profile worker.cpuprofile --state-dir DIR]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checklist, completeness, differences, expectedEpisodes, followToEnd, groupCpuSeconds, groupMemory, memorySampler, mockRun, readResults, sample, scorableMockTasks, startHarness, storageKind,
} from '../test/support/load-harness.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import { profileSummary, startWorkerProfile } from './load-profile.ts';
import { runBatch } from '../src/core/runner/batch.ts';
import { systemClock } from '../src/core/orchestrator/clock.ts';
import { loadDomain } from '../src/cli/data.ts';
import { clientFor } from '../src/cli/run/models.ts';
import type { SimulationRun } from '../src/core/schemas/simulation.ts';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '32' }, profile: { type: 'string' }, 'state-dir': { type: 'string' },
  },
});
const tasks = await scorableMockTasks();
const concurrency = Number(values.concurrency);
const config = mockRun({ task_ids: tasks, num_trials: Math.ceil(Number(values.episodes) / tasks.length), max_concurrency: concurrency });
const expected = expectedEpisodes(config);
const MEMORY_MARKS = [1_000, 5_000, 10_000];

console.log(`load: ${expected.length} mock episodes (${tasks.length} tasks × ${config.num_trials} trials), max_concurrency ${concurrency}, instant fake provider`);
// The operator's limits are raised to the load's size (a 10,000-episode load runs 1,112 trials of the mock tasks).
const harness = await startHarness(mockConversation(), {
  workerVars: {
    PROVIDER_MAX_CONCURRENCY: String(concurrency),
    LIMIT_MAX_TRIALS: String(config.num_trials),
    LIMIT_MAX_EPISODES_PER_RUN: String(Math.max(expected.length, 10_000)),
    LIMIT_MAX_CONCURRENCY: String(Math.max(concurrency, 100)),
  },
  ...(values['state-dir'] === undefined ? {} : { stateRoot: values['state-dir'] }),
  inspector: values.profile !== undefined,
});
console.log(`runtime state in ${harness.stateDir} (${await storageKind(harness.stateDir)})`);
const { check, exitCode } = checklist();

const verify = (label: string, sims: readonly SimulationRun[]): void => {
  const { lost, duplicated, unexpected } = completeness(expected, sims);
  const infra = sims.filter((s) => s.termination_reason === 'infrastructure_error').length;
  check(sims.length === expected.length, `${label}: simulations in the results`, `${sims.length} / ${expected.length}`);
  check(lost.length === 0, `${label}: 0 lost simulations`, sample(lost));
  check(duplicated.length === 0, `${label}: 0 duplicated simulations`, sample(duplicated));
  check(unexpected.length === 0, `${label}: no simulation outside the run`, sample(unexpected));
  check(new Set(sims.map((s) => s.id)).size === sims.length, `${label}: simulation ids unique`);
  check(infra === 0, `${label}: 0 infrastructure errors`, String(infra));
};

try {
  const memory = memorySampler(() => harness.worker().pid);
  const profiler = values.profile === undefined ? null : await startWorkerProfile(harness.worker().inspectorPort!);
  const cpuBefore = await groupCpuSeconds(harness.worker().pid, 'workerd');
  const marks: string[] = [];
  let lastPrint = 0;
  const ended = await followToEnd(harness, config, async (_event, n) => {
    if (MEMORY_MARKS.includes(n)) {
      const workerd = (await groupMemory(harness.worker().pid)).get('workerd') ?? 0;
      marks.push(`${n}: ${(workerd / 2 ** 20).toFixed(0)} MB`);
    }
    if (n - lastPrint >= 100 || n === expected.length) {
      lastPrint = n;
      console.log(`  ${n}/${expected.length} simulation events`);
    }
  });
  // The run's own work ends here: CPU, memory and the profile are taken before its results are read back.
  const { peakWorkerdMb, peakTotalMb } = memory.stop();
  const cpuAfter = await groupCpuSeconds(harness.worker().pid, 'workerd');
  const profiled = (await profiler?.stop(values.profile!)) ?? null;
  const run = await readResults(harness, ended);
  if (profiled !== null) {
    const { profile, lines } = profiled;
    console.log(`Worker CPU profile written to ${values.profile}`);
    console.log(profileSummary(profile, lines, run.results.simulations.length));
  }
  const perEpisode = (seconds: number) => ((seconds * 1000) / Math.max(1, run.results.simulations.length)).toFixed(1);
  const workerCalls = harness.fake.requests.length;
  const sims = run.results.simulations;
  const eventIds = new Set(run.events.map((e) => e.simulation_id));
  const workerRate = (sims.length / run.recordedSeconds) * 60;
  console.log(
    `worker run ${run.runId}: ${run.status} in ${run.recordedSeconds.toFixed(1)} s by its record (${run.seconds.toFixed(1)} s seen by the client), ${workerRate.toFixed(0)} episodes/minute; its results read back in ${run.resultsSeconds.toFixed(1)} s more`,
  );
  console.log(
    `workerd CPU per episode: ${perEpisode(cpuAfter.user - cpuBefore.user)} ms user, ${perEpisode(cpuAfter.system - cpuBefore.system)} ms system`,
  );
  console.log(`workerd memory at finished episodes: ${marks.length > 0 ? marks.join(', ') : 'fewer than 1000 episodes'}`);
  console.log(`peak memory: workerd ${peakWorkerdMb.toFixed(0)} MB, runtime total (Node + workerd) ${peakTotalMb.toFixed(0)} MB`);
  console.log(`provider calls: ${workerCalls} (${(workerCalls / sims.length).toFixed(2)} per episode)`);

  // The same episodes in this process, with the worker idle, against the same provider.
  await sleep(500);
  const { domain, data, guidelines } = await loadDomain('mock');
  const client = clientFor(harness.fake.baseURL);
  const started = performance.now();
  const inProcess = await runBatch(config, {
    domain, data, guidelines, clients: { agent: client, user: client, judge: client }, clock: systemClock,
    newId: randomUUID, sleep: (ms) => sleep(ms), gitCommit: 'load',
  });
  const inProcessSeconds = (performance.now() - started) / 1000;
  const inProcessRate = (inProcess.simulations.length / inProcessSeconds) * 60;
  console.log(`in-process run: ${inProcessSeconds.toFixed(1)} s, ${inProcessRate.toFixed(0)} episodes/minute`);
  console.log(`worker/in-process throughput: ${workerRate.toFixed(0)} / ${inProcessRate.toFixed(0)} episodes per minute = ${(workerRate / inProcessRate).toFixed(2)}`);

  check(run.status === 'completed', 'worker: run completed', run.status);
  verify('worker', sims);
  check(eventIds.size === sims.length, 'worker: one simulation event per simulation', `${eventIds.size} distinct of ${run.events.length} events`);
  verify('in-process', inProcess.simulations);
  const diff = differences(sims, inProcess.simulations);
  check(diff.length === 0, 'every simulation scored alike by both paths (same conversation, same reward checks)', sample(diff));
} finally {
  await harness.close();
}
process.exitCode = exitCode();
