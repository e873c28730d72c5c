// `tau2-edge compare-modes --default FILE --solo FILE`: pass^1 of the same tasks with and without the simulated
// user, and the difference, overall and per issue type (telecom: the task's issue family).
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { compareModes } from '../../core/metrics/mode-comparison.ts';
import type { ModeRow } from '../../core/metrics/mode-comparison.ts';
import { loadResults } from '../results-file.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { issueTypeOf } from '../../../domains/issue-types.ts';


const describeRun = (results: Results): string =>
  `${results.info.agent_info.implementation} (${results.info.agent_info.llm ?? 'no llm'})`;

const signed = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(4)}`;

const formatRow = (row: ModeRow): string =>
  `${row.group.padEnd(20)} ${String(row.tasks).padStart(5)}  ${row.defaultPass1.toFixed(4).padStart(14)}  ${row.soloPass1.toFixed(4).padStart(11)}  ${signed(row.userCost).padStart(9)}`;

interface CompareModesFlags {
  readonly default: string;
  readonly solo: string;
}

export const compareModesCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'compare-modes',
    'pass^1 of the same tasks with and without the simulated user, per issue type',
    ['compare-modes --default runs/telecom.json --solo runs/telecom-solo.json'],
    (command) =>
      command
        .requiredOption('--default <file>', 'results of the run with the user simulator')
        .requiredOption('--solo <file>', 'results of the llm_agent_solo run'),
    (values: CompareModesFlags) => compareModesRun(values, ctx.out),
  );

const compareModesRun = async (values: CompareModesFlags, out: (text: string) => void): Promise<number> => {
  const [defaultRun, soloRun] = await Promise.all([loadResults(values.default), loadResults(values.solo)]);
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
