// Fault: a provider that answers a seeded fraction of calls with 429, 500, a hang or a non-JSON body. The run
// must complete, every faulted call must be retried until answered, and every simulation must be scored as in
// a run against the same provider without faults. Usage: npm run fault:provider [-- --rate 0.2 --seed 7]
import { parseArgs } from 'node:util';
import { checklist, completeness, differences, expectedEpisodes, mockRun, runToEnd, sample, scorableMockTasks, startHarness } from '../test/support/load-harness.ts';
import { FAULT_KINDS, mockConversation, withFaults } from '../test/support/fake-openai.ts';
import { pyFloat } from '../src/core/py/index.ts';

const { values } = parseArgs({
  options: { rate: { type: 'string', default: '0.2' }, seed: { type: 'string', default: '7' }, trials: { type: 'string', default: '3' } },
});
// A 3 s per-call timeout (the `timeout` LLM arg) so that hung calls are abandoned and retried quickly.
const llmArgs = { temperature: pyFloat(0), timeout: 3 };
const config = mockRun({
  task_ids: await scorableMockTasks(),
  num_trials: Number(values.trials),
  max_concurrency: 8,
  llm_args_agent: llmArgs,
  llm_args_user: llmArgs,
});
const expected = expectedEpisodes(config);
const plan = { seed: Number(values.seed), rate: Number(values.rate) };
const { check, exitCode } = checklist();

console.log(`fault-provider: ${expected.length} mock episodes; ${plan.rate * 100}% of provider calls faulted (${FAULT_KINDS.join(' / ')}), seed ${plan.seed}`);
const harness = await startHarness(mockConversation());
try {
  const clean = await runToEnd(harness, config);
  const cleanCalls = harness.fake.requests.length;
  console.log(`clean run: ${clean.status} in ${clean.seconds.toFixed(1)} s, ${cleanCalls} provider calls`);

  const faulty = withFaults(mockConversation(), plan);
  harness.fake.setHandler(faulty.handler);
  const run = await runToEnd(harness, config);
  const stats = faulty.stats();
  const total = FAULT_KINDS.reduce((sum, kind) => sum + stats.faults[kind], 0);
  console.log(`faulty run: ${run.status} in ${run.seconds.toFixed(1)} s, ${stats.requests} provider calls`);
  console.log(`injected faults: ${total} (${FAULT_KINDS.map((k) => `${k} ${stats.faults[k]}`).join(', ')}); faulted calls never answered afterwards: ${stats.unretried}`);

  const sims = run.results.simulations;
  const { lost, duplicated, unexpected } = completeness(expected, sims);
  const infra = sims.filter((s) => s.termination_reason === 'infrastructure_error').map((s) => `${s.task_id}#${s.trial}`);
  const diff = differences(clean.results.simulations, sims);
  check(clean.status === 'completed' && run.status === 'completed', 'both runs completed', `${clean.status}, ${run.status}`);
  check(total > 0, 'faults were injected', String(total));
  check(stats.unretried === 0, 'every faulted call was retried until answered', String(stats.unretried));
  check(lost.length === 0, '0 lost simulations', sample(lost));
  check(duplicated.length === 0, '0 duplicated simulations', sample(duplicated));
  check(unexpected.length === 0, 'no simulation outside the run', sample(unexpected));
  check(infra.length === 0, '0 infrastructure errors', sample(infra));
  check(diff.length === 0, 'every simulation scored as in the clean run (same conversation, same reward checks)', sample(diff));
} finally {
  await harness.close();
}
process.exitCode = exitCode();
