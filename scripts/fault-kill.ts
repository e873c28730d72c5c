// Fault: kill -9 of the local runtime in the middle of a run, then a restart on the same state. The run must
// complete with every simulation exactly once, and its results must equal those of an uninterrupted run of the
// same configuration. Usage: npm run fault:kill [-- --trials 4 --kill-after 0.3]
import { parseArgs } from 'node:util';
import { checklist, completeness, differences, expectedEpisodes, mockRun, runToEnd, sample, scorableMockTasks, startHarness } from '../test/support/load-harness.ts';
import type { FinishedRun, Harness } from '../test/support/load-harness.ts';
import { mockConversation } from '../test/support/fake-openai.ts';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '4' }, 'kill-after': { type: 'string', default: '0.3' } } });
const config = mockRun({ task_ids: await scorableMockTasks(), num_trials: Number(values.trials), max_concurrency: 6 });
const expected = expectedEpisodes(config);
// Provider think time, so that episodes are mid-conversation when the runtime dies.
const provider = () => mockConversation({ delayMs: 150 });
const { check, exitCode } = checklist();

const verify = (label: string, run: FinishedRun): void => {
  const { lost, duplicated, unexpected } = completeness(expected, run.results.simulations);
  check(run.status === 'completed', `${label}: run completed`, run.status);
  check(lost.length === 0, `${label}: 0 lost simulations`, sample(lost));
  check(duplicated.length === 0, `${label}: 0 duplicated simulations`, sample(duplicated));
  check(unexpected.length === 0, `${label}: no simulation outside the run`, sample(unexpected));
};

console.log(`fault-kill: ${expected.length} mock episodes, max_concurrency ${config.max_concurrency}, provider delay 150 ms`);
let baseline: FinishedRun;
{
  const harness = await startHarness(provider());
  try {
    baseline = await runToEnd(harness, config);
  } finally {
    await harness.close();
  }
  console.log(`uninterrupted run: ${baseline.status} in ${baseline.seconds.toFixed(1)} s`);
  verify('uninterrupted', baseline);
}

const killAt = Math.max(1, Math.floor(expected.length * Number(values['kill-after'])));
const harness: Harness = await startHarness(provider());
try {
  let killed: Promise<void> | null = null;
  let restartSeconds = 0;
  const interrupted = await runToEnd(harness, config, (event, n) => {
    if (n !== killAt || killed) return;
    killed = (async () => {
      const { done, running, pending } = event.counts;
      console.log(`kill -9 of the runtime (process group ${harness.worker().pid}) at ${done}/${expected.length} done, ${running} running, ${pending} pending`);
      await harness.kill();
      const started = performance.now();
      await harness.restart();
      restartSeconds = (performance.now() - started) / 1000;
      console.log(`runtime restarted on the same state in ${restartSeconds.toFixed(1)} s`);
    })();
  });
  check(killed !== null, 'the runtime was killed during the run');
  console.log(`interrupted run: ${interrupted.status} in ${interrupted.seconds.toFixed(1)} s`);
  verify('interrupted', interrupted);
  const eventIds = new Set(interrupted.events.map((e) => e.simulation_id));
  check(eventIds.size === expected.length, 'one simulation event per simulation across the reconnect', `${eventIds.size} distinct of ${interrupted.events.length} events`);
  const diff = differences(baseline.results.simulations, interrupted.results.simulations);
  check(diff.length === 0, 'results identical to the uninterrupted run (ids, times and raw provider data aside)', sample(diff));
} finally {
  await harness.close();
}
process.exitCode = exitCode();
