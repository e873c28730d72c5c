// `tau2-edge compare-modes --default FILE --solo FILE`: pass^1 of the same tasks with and without the simulated
// user, and the difference, overall and per issue type (telecom: the task's issue family).
// `tau2-edge compare-modes --by retrieval-config FILE FILE…`: runs of one domain split by retrieval
// configuration: each configuration's avg reward and pass^k, and each task's reward against the first file's.
import { Option } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { compareModes, compareRetrievalConfigs } from '../../core/metrics/mode-comparison.ts';
import type { ConfigComparison, ModeRow } from '../../core/metrics/mode-comparison.ts';
import { loadResults } from '../results-file.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { issueTypeOf } from '../../../domains/issue-types.ts';
import { tableLines } from '../plain-table.ts';

const describeRun = (results: Results): string =>
  `${results.info.agent_info.implementation} (${results.info.agent_info.llm ?? 'no llm'})`;

const signed = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(4)}`;

const formatRow = (row: ModeRow): string =>
  `${row.group.padEnd(20)} ${String(row.tasks).padStart(5)}  ${row.defaultPass1.toFixed(4).padStart(14)}  ${row.soloPass1.toFixed(4).padStart(11)}  ${signed(row.userCost).padStart(9)}`;

/** How results can be split instead of by mode. */
const SPLITS = ['retrieval-config'] as const;

interface CompareModesFlags {
  readonly default?: string;
  readonly solo?: string;
  readonly by?: (typeof SPLITS)[number];
}

export const compareModesCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'compare-modes',
    'pass^1 of the same tasks with and without the simulated user, per issue type; or runs split by retrieval configuration',
    [
      'compare-modes --default runs/telecom.json --solo runs/telecom-solo.json',
      'compare-modes --by retrieval-config runs/banking-bm25.json runs/banking-grep-only.json',
    ],
    (command) =>
      command
        .option('--default <file>', 'results of the run with the user simulator')
        .option('--solo <file>', 'results of the llm_agent_solo run')
        .addOption(new Option('--by <split>', 'compare the FILEs by this instead (banking_knowledge runs)').choices(SPLITS))
        .argument('[files...]', 'with --by: results files of one domain, the first the baseline of the deltas'),
    (files: string[], values: CompareModesFlags) => {
      if (values.by === undefined) {
        if (values.default === undefined || values.solo === undefined || files.length > 0) {
          throw new Error('compare-modes takes --default FILE --solo FILE, or --by retrieval-config FILE FILE…');
        }
        return compareModesRun(values.default, values.solo, ctx.out);
      }
      if (values.default !== undefined || values.solo !== undefined) throw new Error('--by compares the FILEs given, not --default / --solo');
      return compareConfigsRun(files, ctx.out);
    },
  );

const compareModesRun = async (defaultFile: string, soloFile: string, out: (text: string) => void): Promise<number> => {
  const [defaultRun, soloRun] = await Promise.all([loadResults(defaultFile), loadResults(soloFile)]);
  const domain = defaultRun.info.environment_info.domain_name;
  if (soloRun.info.environment_info.domain_name !== domain) {
    throw new Error(`The runs are of different domains: ${domain} and ${soloRun.info.environment_info.domain_name}`);
  }
  const comparison = compareModes(defaultRun, soloRun, issueTypeOf(domain));
  out(`${domain}: default ${describeRun(defaultRun)} vs solo ${describeRun(soloRun)}`);
  out(`${'issue type'.padEnd(20)} ${'tasks'.padStart(5)}  default pass^1  solo pass^1  solo - default`);
  for (const row of [comparison.overall, ...comparison.groups]) out(formatRow(row));
  const { onlyDefault, onlySolo, infraErrors } = comparison;
  if (onlyDefault.length + onlySolo.length > 0) {
    out(`left out: ${onlyDefault.length} task(s) evaluated only in default, ${onlySolo.length} only in solo`);
  }
  if (infraErrors.default + infraErrors.solo > 0) {
    out(`infrastructure errors excluded: ${infraErrors.default} in default, ${infraErrors.solo} in solo`);
  }
  return 0;
};

/** Each configuration's row: its file, simulations, avg reward and pass^1 … pass^K (K: the most any has). */
const configTable = (comparison: ConfigComparison): string[] => {
  const ks = Math.max(...comparison.configs.map((c) => Object.keys(c.passHatK).length));
  const passHeads = Array.from({ length: ks }, (_, i) => `pass^${i + 1}`);
  return tableLines([
    ['configuration', 'file', 'simulations', 'avg reward', ...passHeads, 'infra errors'],
    ...comparison.configs.map((c) => [
      c.config,
      c.label,
      String(c.simulations),
      c.avgReward.toFixed(4),
      ...passHeads.map((_, i) => c.passHatK[i + 1]?.toFixed(4) ?? '-'),
      String(c.infraErrors),
    ]),
  ]);
};

/** Each task's average reward per configuration, and each later configuration minus the first. */
const taskTable = (comparison: ConfigComparison): string[] => {
  const [base, ...others] = comparison.configs.map((c) => c.config);
  return tableLines([
    ['task', base!, ...others, ...others.map((c) => `${c} - ${base}`)],
    ...comparison.tasks.map((t) => [t.taskId, ...t.avgRewards.map((r) => r.toFixed(4)), ...t.deltas.map(signed)]),
  ]);
};

const compareConfigsRun = async (files: readonly string[], out: (text: string) => void): Promise<number> => {
  const runs = await Promise.all(files.map(async (label) => ({ label, results: await loadResults(label) })));
  const comparison = compareRetrievalConfigs(runs);
  out(`${comparison.domain} by retrieval configuration, on the ${comparison.tasks.length} task(s) every configuration evaluated`);
  for (const line of configTable(comparison)) out(line);
  out('');
  for (const line of taskTable(comparison)) out(line);
  if (comparison.leftOut.length > 0) out(`left out: ${comparison.leftOut.length} task(s) not evaluated by every configuration`);
  return 0;
};
