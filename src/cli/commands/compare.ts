// `tau2-edge compare A B [C…] [--json] [--api URL]`: is run B better than run A? The paired comparison on the tasks
// both evaluated (results files, run folders, or run ids of the API given with --api): the difference of the
// average reward with its 95% CI, the paired t-test, whether it is resolved, the minimum detectable difference, and
// the tasks that flipped. More runs are each compared with the first.
import { stat } from 'node:fs/promises';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { apiClient } from '../../client/index.ts';
import { pairedComparison } from '../../core/metrics/paired-comparison.ts';
import type { ChangedTask, PairedComparison } from '../../core/schemas/statistics.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { loadResults } from '../results-file.ts';
import { tableLines } from '../plain-table.ts';

interface CompareFlags {
  readonly json?: boolean;
  readonly api?: string;
}

/** A run's simulations: a local results file or run folder, else a run id of the API (without messages). */
const simulationsOf = async (target: string, api: string | undefined): Promise<readonly SimulationRun[]> => {
  if ((await stat(target).catch(() => null)) !== null) return (await loadResults(target)).simulations;
  if (api === undefined) throw new Error(`${target} is not a file; to compare a run of an API give --api URL`);
  return (await apiClient(api, process.env.TAU2_EDGE_API_KEY).results(target, { messages: false })).simulations;
};

const signed = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(4)}`;
const orNa = (x: number | null, show: (v: number) => string = (v) => v.toFixed(4)): string => (x === null ? 'n/a' : show(x));

const taskList = (tasks: readonly ChangedTask[]): string =>
  tasks.length === 0 ? 'none' : tasks.map((t) => `${t.task_id} (${signed(t.difference)})`).join(', ');

const verdict = (c: PairedComparison): string =>
  c.difference === null || c.se === null
    ? 'no: fewer than two shared tasks'
    : c.resolved
      ? `yes: B is ${c.difference > 0 ? 'better' : 'worse'} than A (the CI excludes 0)`
      : 'no: the CI includes 0';

export const comparisonLines = (c: PairedComparison): string[] => [
  `On the ${c.shared_tasks} task${c.shared_tasks === 1 ? '' : 's'} both runs evaluated (paired by task):`,
  ...tableLines([
    ['Difference (B − A)', `${orNa(c.difference, signed)}  95% CI [${orNa(c.ci_low, signed)}, ${orNa(c.ci_high, signed)}]`],
    ['p-value', `${orNa(c.p_value)} (two-sided paired t-test)`],
    ['Resolved', verdict(c)],
    ['Standard Error', orNa(c.se)],
    ['Min. Detectable Difference', `${orNa(c.mdd)} (80% power, α = 0.05)`],
    ['Trials per Task Needed', c.trials_needed === null ? 'n/a' : `${c.trials_needed} (to detect ${orNa(c.difference, signed)} with 80% power)`],
    ['Improved (B all, A none)', taskList(c.improved)],
    ['Regressed (A all, B none)', taskList(c.regressed)],
  ]),
  ...(c.only_a.length + c.only_b.length > 0
    ? [`left out: ${c.only_a.length} task(s) only A evaluated${c.only_a.length > 0 ? ` (${c.only_a.join(', ')})` : ''}, ` +
        `${c.only_b.length} only B${c.only_b.length > 0 ? ` (${c.only_b.join(', ')})` : ''}`]
    : []),
];

export const compareCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'compare',
    'is run B better than run A? the paired difference on shared tasks, its 95% CI and p-value',
    ['compare runs/a.json runs/b.json', 'compare runs/a.json runs/b.json runs/c.json --json', 'compare RUN_A RUN_B --api http://127.0.0.1:8787'],
    (command) =>
      command
        .argument('<a>', 'run A, the baseline: a results file, a run folder, or a run id with --api')
        .argument('<b...>', 'run B (and any further runs), each compared with A')
        .option('--json', 'print the comparison as JSON (an array of them with more than one B)')
        .option('--api <url>', 'the tau2-edge API holding runs given by id'),
    async (a: string, others: string[], values: CompareFlags) => {
      const [simsA, ...simsOthers] = await Promise.all([a, ...others].map((target) => simulationsOf(target, values.api)));
      const comparisons = others.map((b, i) => ({ a, b, ...pairedComparison(simsA!, simsOthers[i]!) }));
      if (values.json) {
        ctx.out(JSON.stringify(comparisons.length === 1 ? comparisons[0] : comparisons, null, 2));
        return 0;
      }
      comparisons.forEach((comparison, i) => {
        if (i > 0) ctx.out('');
        ctx.out(`A: ${comparison.a}\nB: ${comparison.b}`);
        for (const line of comparisonLines(comparison)) ctx.out(line);
      });
      return 0;
    },
  );
