// `tau2-edge run`: runs an evaluation with the reference's `tau2 run` flags — through the API of a worker
// (`--api URL`, else a local worker started for the run), or in this process (`--in-process`) — with live
// progress, a summary table at the end, and the results file in the reference's format (`--save-to`).
import { resultsFormat, saveResults } from '../results-file.ts';
import { computeMetrics } from '../../core/metrics/agent-metrics.ts';
import { withErrorBars } from '../../core/metrics/error-bars.ts';
import { addRunFlags, runOptionsFrom } from '../run/flags.ts';
import type { RunFlagValues, RunOptions } from '../run/flags.ts';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { progressDisplay, stdoutTarget } from '../run/progress-display.ts';
import { runInProcess } from '../run/in-process.ts';
import { runThroughApi } from '../run/remote.ts';
import { missingCredentials } from '../run/models.ts';
import { resultsSummary } from '../summary.ts';
import { reviewRun } from '../run/auto-review.ts';
import { mergeResumed, resumeSaved } from '../run/resume.ts';
import { loggedProgress } from '../run/log.ts';
import { refusalOf, stoppedBy } from '../../core/runner/refusal.ts';
import { infraErrorLines } from '../run/infra-errors.ts';
import { loadResults } from '../results-file.ts';
import { addRounds, stopLine } from '../run/rounds.ts';
import type { RoundsGoal } from '../../core/runner/rounds.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { pairedComparison } from '../../core/metrics/paired-comparison.ts';
import { comparisonLines } from './compare.ts';


export const runCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'run',
    'run an evaluation (flags as `tau2 run`) on a local worker, a serving API (--api) or in this process (--in-process)',
    [
      'run --domain mock --agent-llm gpt-4.1-mini --user-llm gpt-4.1-mini --num-trials 1',
      'run --domain airline --task-ids 0 1 2 --num-trials 4 --save-to runs/airline.json',
      'run --domain retail --llm-base-url http://127.0.0.1:8000/v1 --in-process',
    ],
    addRunFlags,
    (values: RunFlagValues) => run(runOptionsFrom(values), ctx.out),
  );

/** Run A of `--compare-to`, loaded before anything starts; B runs A's tasks unless tasks are chosen. */
const baselineOf = async (options: RunOptions): Promise<{ baseline: Results | null; options: RunOptions }> => {
  if (options.rounds?.kind !== 'resolved') return { baseline: null, options };
  const baseline = await loadResults(options.rounds.compareTo);
  const { config } = options;
  const domain = baseline.info.environment_info.domain_name;
  if (domain !== config.domain) throw new Error(`--compare-to: ${options.rounds.compareTo} ran domain ${domain}, not ${config.domain}`);
  const taskIds = config.task_ids ?? (config.num_tasks === null ? baseline.tasks.map((t) => t.id) : null);
  return { baseline, options: { ...options, config: { ...config, task_ids: taskIds } } };
};

const roundsGoal = (options: RunOptions, baseline: Results | null): RoundsGoal | null => {
  const { rounds } = options;
  if (rounds === null) return null;
  return rounds.kind === 'ci_width' ? rounds : { kind: 'resolved', baseline: baseline!.simulations, maxTrials: rounds.maxTrials };
};

const run = async (asked: RunOptions, out: (text: string) => void): Promise<number> => {
  const { baseline, options } = await baselineOf(asked);
  // Checked before anything starts: a results file is never silently overwritten, only resumed.
  const resume = await resumeSaved(options.saveTo, options.config, options.autoResume, out);
  if (options.api === null) {
    // The models this machine calls (the local worker's or this process's): each needs its provider's credentials.
    const { config } = options;
    const models = [
      ...(config.agent_endpoint === null ? [config.llm_agent] : []),
      ...(config.user === 'user_simulator' ? [config.llm_user] : []),
      config.llm_judge,
    ];
    const missing = missingCredentials(models, options.llmBaseUrl, process.env);
    if (missing !== null) throw new Error(missing);
  }
  out(`results will be saved to ${options.saveTo}`);
  const target = stdoutTarget();
  const display = (total: number) => loggedProgress(progressDisplay(total, target), options.config.domain, options.logLevel);
  const config = resume === null ? options.config : { ...options.config, skip_episodes: resume.skip };
  const runOnce = (config: RunConfig) => (options.inProcess ? runInProcess(config, options, display) : runThroughApi({ ...options, config }, display, out));
  const first =
    resume !== null && resume.pending === 0
      ? { results: resume.kept, cancelled: false, fatal: null, peakCallsInFlight: null }
      : await runOnce(config);
  const firstRan = resume === null || resume.pending === 0 ? first : { ...first, results: mergeResumed(resume, first.results) };
  const goal = roundsGoal(options, baseline);
  const rounds = goal === null ? null : await addRounds(goal, config, firstRan, runOnce, out);
  const outcome = rounds ?? firstRan;
  const { cancelled } = outcome;
  const ran = outcome.results;
  // A refusal met by the last simulations ends the run as well, without stopping it.
  const refusal = refusalOf(outcome.results.simulations);
  const fatal = outcome.fatal ?? (refusal === null ? null : stoppedBy(refusal));
  out('');
  if (cancelled) out(`run cancelled: the summary covers the ${ran.simulations.length} simulations that finished`);
  if (fatal !== null) out(`run stopped: ${fatal}\nthe summary covers the ${ran.simulations.length} simulations that finished`);
  const results = options.autoReview === null ? ran : await reviewRun(ran, options.autoReview, options.llmBaseUrl, options.config.max_concurrency, out);
  const metrics = computeMetrics(results);
  out(resultsSummary(results));
  if (rounds?.stop) out(stopLine(rounds.stop));
  if (baseline !== null) {
    out(`\nA: ${options.rounds?.kind === 'resolved' ? options.rounds.compareTo : ''}\nB: ${options.saveTo}`);
    for (const line of comparisonLines(pairedComparison(baseline.simulations, results.simulations))) out(line);
  }
  for (const line of infraErrorLines(results.simulations)) out(line);
  if (outcome.peakCallsInFlight !== null) out(`peak model calls in flight: ${outcome.peakCallsInFlight} (max concurrency ${config.max_concurrency})`);
  // A resumed file keeps its format.
  await saveResults(options.saveTo, withErrorBars(results), resume === null ? 'json' : await resultsFormat(options.saveTo));
  out(`results saved to ${options.saveTo}`);
  // 130: interrupted by Ctrl-C, as shells report it.
  if (cancelled) return 130;
  if (fatal !== null) return 1;
  if (options.failUnder !== null && !(metrics.total_simulations > 0 && metrics.avg_reward >= options.failUnder)) {
    out(`fail-under: average reward ${metrics.total_simulations > 0 ? metrics.avg_reward.toFixed(4) : 'n/a (nothing evaluated)'} is below ${options.failUnder}`);
    return 1;
  }
  return 0;
};
