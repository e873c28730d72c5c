// Load: ≥ 1,000 mock episodes through a local `wrangler dev` against an instant fake provider. Prints
// episodes/minute and the runtime's peak memory; fails on any lost or duplicated simulation.
// Usage: npm run load [-- --episodes 1000 --concurrency 32]
import { parseArgs } from 'node:util';
import { checklist, completeness, expectedEpisodes, memorySampler, mockRun, runToEnd, sample, scorableMockTasks, startHarness } from './load-harness.ts';
import { mockConversation } from '../test/support/fake-openai.ts';

const { values } = parseArgs({ options: { episodes: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '32' } } });
const tasks = await scorableMockTasks();
const concurrency = Number(values.concurrency);
const config = mockRun({ task_ids: tasks, num_trials: Math.ceil(Number(values.episodes) / tasks.length), max_concurrency: concurrency });
const expected = expectedEpisodes(config);

console.log(`load: ${expected.length} mock episodes (${tasks.length} tasks × ${config.num_trials} trials), max_concurrency ${concurrency}, instant fake provider`);
const harness = await startHarness(mockConversation(), { PROVIDER_MAX_CONCURRENCY: String(concurrency) });
const { check, exitCode } = checklist();
try {
  const memory = memorySampler(() => harness.worker().pid);
  let lastPrint = 0;
  const run = await runToEnd(harness, config, (_event, n) => {
    if (n - lastPrint >= 100 || n === expected.length) {
      lastPrint = n;
      console.log(`  ${n}/${expected.length} simulation events`);
    }
  });
  const { peakWorkerdMb, peakTotalMb } = memory.stop();
  const sims = run.results.simulations;
  const { lost, duplicated, unexpected } = completeness(expected, sims);
  const infra = sims.filter((s) => s.termination_reason === 'infrastructure_error').length;
  const eventIds = new Set(run.events.map((e) => e.simulation_id));

  console.log(`run ${run.runId}: ${run.status} in ${run.seconds.toFixed(1)} s`);
  console.log(`episodes/minute: ${((sims.length / run.seconds) * 60).toFixed(0)}`);
  console.log(`peak memory: workerd ${peakWorkerdMb.toFixed(0)} MB, runtime total (wrangler + workerd) ${peakTotalMb.toFixed(0)} MB`);
  console.log(`provider calls: ${harness.fake.requests.length} (${(harness.fake.requests.length / sims.length).toFixed(2)} per episode)`);
  check(run.status === 'completed', 'run completed', run.status);
  check(sims.length === expected.length, 'simulations in the results', `${sims.length} / ${expected.length}`);
  check(lost.length === 0, '0 lost simulations', sample(lost));
  check(duplicated.length === 0, '0 duplicated simulations', sample(duplicated));
  check(unexpected.length === 0, 'no simulation outside the run', sample(unexpected));
  check(new Set(sims.map((s) => s.id)).size === sims.length, 'simulation ids unique');
  check(eventIds.size === sims.length, 'one simulation event per simulation', `${eventIds.size} distinct of ${run.events.length} events`);
  check(infra === 0, '0 infrastructure errors', String(infra));
} finally {
  await harness.close();
}
process.exitCode = exitCode();
