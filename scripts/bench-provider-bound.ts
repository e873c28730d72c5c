// A provider-bound run, timed on both paths: 240 mock episodes against a provider that takes 0.5 s per call,
// at --max-concurrency 64, on the default path (a local Worker started as `run` starts it, timed from the run's
// creation to its end) and in process (the engine in this process, timed the same way). Start-up is left out of
// both. The ideal is the calls of one episode times 0.5 s, times the episodes over 64.
import { mockConversation, startFakeOpenAI } from '../test/support/fake-openai.ts';
import { followToEnd, mockRun, scorableMockTasks, startHarness } from '../test/support/load-harness.ts';
import { runInProcess } from '../src/cli/run/in-process.ts';
import { progressDisplay } from '../src/cli/run/progress-display.ts';

const EPISODES = 240;
const CALL_MS = 500;
const MAX_CONCURRENCY = 64;

export const benchProviderBound = async (): Promise<string[]> => {
  const tasks = (await scorableMockTasks()).slice(0, 8);
  const config = mockRun({ task_ids: tasks, num_trials: EPISODES / tasks.length, max_concurrency: MAX_CONCURRENCY });
  const handler = mockConversation({ delayMs: CALL_MS });

  // The local Worker gets the provider cap `run` gives it: the run's concurrency.
  const harness = await startHarness(handler, { workerVars: { PROVIDER_MAX_CONCURRENCY: String(MAX_CONCURRENCY) } });
  let worker: { seconds: number; peak: number | null; calls: number };
  try {
    const ended = await followToEnd(harness, config);
    if (ended.status !== 'completed' || ended.events.length !== EPISODES) throw new Error(`default path: ${ended.status}, ${ended.events.length}/${EPISODES} simulations`);
    worker = { seconds: ended.seconds, peak: (await harness.client().run(ended.runId)).peak_calls_in_flight, calls: harness.fake.requests.length };
  } finally {
    await harness.close();
  }

  const fake = await startFakeOpenAI();
  fake.setHandler(handler);
  let inProcess: { seconds: number; peak: number | null };
  try {
    const quiet = { isTTY: false, columns: 80, write: () => {} };
    const started = performance.now();
    const outcome = await runInProcess(config, { llmBaseUrl: fake.baseURL, saveTo: '/dev/null', logLevel: 'ERROR', verboseLogs: false, llmLogMode: 'latest' }, (total) => progressDisplay(total, quiet));
    if (outcome.results.simulations.length !== EPISODES) throw new Error(`in process: ${outcome.results.simulations.length}/${EPISODES} simulations`);
    inProcess = { seconds: (performance.now() - started) / 1000, peak: outcome.peakCallsInFlight };
  } finally {
    await fake.close();
  }
  const ideal = (worker.calls / EPISODES) * (CALL_MS / 1000) * Math.ceil(EPISODES / MAX_CONCURRENCY);
  return [
    `provider-bound: default path ${worker.seconds.toFixed(1)} s, in process ${inProcess.seconds.toFixed(1)} s (without start-up)`,
    `  ${EPISODES} mock episodes, ${CALL_MS} ms per provider call, --max-concurrency ${MAX_CONCURRENCY}: ratio ${(worker.seconds / inProcess.seconds).toFixed(2)}, ` +
      `ideal ${ideal.toFixed(1)} s; peak calls in flight: default path ${worker.peak ?? 'n/a'}, in process ${inProcess.peak ?? 'n/a'}`,
  ];
};

if (import.meta.main) for (const line of await benchProviderBound()) console.log(line);
