// `tau2-edge evaluate-trajs FILE [--out FILE] [--judge-llm MODEL]`: re-grades a reference-format results file.
import { defineCommand } from '../cli-command.ts';
import { loadResults, saveResults } from '../results-file.ts';
import { withErrorBars } from '../../core/metrics/error-bars.ts';
import type { CliContext } from '../cli-command.ts';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { regradeSimulation, rewardComponents } from '../../core/evaluator/regrade.ts';
import { isoTimestamp, systemClock } from '../../core/orchestrator/clock.ts';
import { loadDomain } from '../data.ts';
import { modelFromFlags } from '../run/models.ts';

interface EvaluateTrajsFlags {
  readonly out?: string;
  readonly outputDir?: string;
  readonly freshTasks?: boolean;
  readonly judgeLlm?: string;
  readonly judgeLlmArgs?: string;
  readonly llmBaseUrl?: string;
}

export const evaluateTrajsCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'evaluate-trajs',
    're-grade results files and report how often the recorded rewards agree',
    [
      'evaluate-trajs data/simulations/airline.json',
      'evaluate-trajs runs/a.json runs/b.json -o regraded/ --fresh-tasks',
      'evaluate-trajs run.json --out regraded.json --judge-llm gpt-4.1-mini',
    ],
    (command) =>
      command
        .argument('<paths...>', 'results files in the reference format, or folders holding them (results.json, else every *.json)')
        .option('-o, --output-dir <dir>', 'write each re-graded results file into this folder, under its own name')
        .option('--out <file>', 'write the re-graded results of a single file here')
        .option('--fresh-tasks', "re-grade against the data folder's current task definitions instead of the embedded ones")
        .option('--judge-llm <model>', 'the model grading NL assertions (default: reuse the recorded verdicts)')
        .option('--judge-llm-args <json>', "the judge model's arguments as JSON")
        .option('--llm-base-url <url>', "an OpenAI-compatible endpoint for the judge"),
    async (paths: string[], values: EvaluateTrajsFlags) => {
      const files = (await Promise.all(paths.map(resultsFilesAt))).flat();
      if (values.out !== undefined && files.length !== 1) throw new Error(`--out takes one results file; ${files.length} given (use -o DIR)`);
      let code = 0;
      for (const file of files) {
        if (files.length > 1) ctx.out(`== ${file}`);
        const target = values.out ?? (values.outputDir === undefined ? null : path.join(values.outputDir, path.basename(file)));
        code = Math.max(code, await evaluateTrajs(file, target, values, ctx.out));
      }
      return code;
    },
  );

/** A results file, or the results files in a folder: its results.json, else every *.json in it. */
const resultsFilesAt = async (target: string): Promise<string[]> => {
  if (!(await stat(target)).isDirectory()) return [target];
  const names = await readdir(target);
  if (names.includes('results.json')) return [path.join(target, 'results.json')];
  return names.filter((n) => n.endsWith('.json')).sort().map((n) => path.join(target, n));
};

const evaluateTrajs = async (
  file: string,
  target: string | null,
  values: EvaluateTrajsFlags,
  out: (text: string) => void,
): Promise<number> => {
  const recorded = await loadResults(file);
  const { domain, data } = await loadDomain(recorded.info.environment_info.domain_name);
  // --fresh-tasks: each task as the data folder defines it now (a task missing there keeps its embedded form).
  const current = new Map(data.tasks.map((t) => [t.id, t]));
  const results = values.freshTasks ? { ...recorded, tasks: recorded.tasks.map((t) => current.get(t.id) ?? t) } : recorded;
  const judge = values.judgeLlm
    ? modelFromFlags(values.judgeLlm, '--judge-llm-args', values.judgeLlmArgs, values.llmBaseUrl)
    : null;
  if (!judge) out('NL assertions: no judge model configured, reusing the recorded verdicts');

  const agreement = new Map<string, [number, number]>();
  let agree = 0;
  let total = 0;
  let ungraded = 0;
  const regradedSims = [];
  for (const simulation of results.simulations) {
    if (simulation.termination_reason === 'infrastructure_error') {
      regradedSims.push(simulation);
      continue;
    }
    const r = await regradeSimulation(simulation, results, {
      domain,
      data,
      judge,
      now: () => isoTimestamp(systemClock.nowMs()),
    });
    regradedSims.push({ ...simulation, reward_info: r.regraded });
    // Trajectories saved without grading (e.g. from another harness) have nothing to agree or disagree with.
    if (r.recorded === null) {
      out(`GRADED task ${simulation.task_id} trial ${simulation.trial} sim ${simulation.id}: no recorded reward; reward ${r.regraded.reward.value.toFixed(1)}`);
      ungraded += 1;
      continue;
    }
    total += 1;
    const differing = Object.keys(r.differences);
    if (differing.length === 0) agree += 1;
    else {
      const detail = differing.map((k) => `${k}: ${String(r.differences[k]![0])} -> ${String(r.differences[k]![1])}`);
      out(`DIFF task ${simulation.task_id} trial ${simulation.trial} sim ${simulation.id}: ${detail.join(', ')}`);
    }
    for (const w of r.replayWarnings) out(`WARN task ${simulation.task_id}: replay output differs\n${w}`);
    const families = new Set(
      [...Object.keys(rewardComponents(r.recorded)), ...Object.keys(rewardComponents(r.regraded))].map(family),
    );
    const differingFamilies = new Set(differing.map(family));
    for (const key of families) {
      const [ok, n] = agreement.get(key) ?? [0, 0];
      agreement.set(key, [ok + (differingFamilies.has(key) ? 0 : 1), n + 1]);
    }
  }
  for (const [key, [ok, n]] of [...agreement].sort()) out(`  ${key}: ${ok} / ${n}`);
  if (target !== null) {
    await saveResults(target, withErrorBars({ ...recorded, simulations: regradedSims }));
  }
  if (ungraded > 0) out(`graded ${ungraded} simulation${ungraded === 1 ? '' : 's'} with no recorded reward`);
  out(`agree ${agree} / ${total}`);
  return agree === total ? 0 : 1;
};

/** `action[2] book_reservation` → `action`: agreement is reported per kind of component. */
const family = (key: string): string => key.replace(/\[.*$/, '');
