// The summary table printed at the end of a run and by `view`: the sections of the reference's metrics display
// (overview, reward and pass^k, DB match, termination, reward breakdown) as plain aligned text (cli-table3),
// and the tokens and cost of every call by role. Given the run's error bars, each score carries its 95% CI and a
// section tells where the variance is.
import { computeMetrics } from '../core/metrics/agent-metrics.ts';
import type { AgentMetrics } from '../core/metrics/agent-metrics.ts';
import { runErrorBars } from '../core/metrics/error-bars.ts';
import type { Results } from '../core/schemas/simulation.ts';
import type { PassHatKError, RunErrorBars } from '../core/schemas/statistics.ts';
import { COST_ROLE_LABELS, COST_ROLES, costText, resultsUsage } from '../core/metrics/role-usage.ts';
import type { UsageTotals } from '../core/metrics/role-usage.ts';
import type { RoleUsage } from '../core/schemas/usage.ts';
import { tableLines } from './plain-table.ts';

type Row = readonly [label: string, value: string] | 'blank';

const section = (title: string): Row => [`=== ${title} ===`, ''];

const overview = (m: AgentMetrics): Row[] =>
  m.infra_error_count > 0
    ? [
        ['Total Simulations', String(m.total_simulations + m.infra_error_count)],
        ['Infra Errors', `${m.infra_error_count} (excluded from metrics below)`],
        ['Evaluated', String(m.total_simulations)],
        ['Total Tasks', String(m.total_tasks)],
      ]
    : [
        ['Total Simulations', String(m.total_simulations)],
        ['Total Tasks', String(m.total_tasks)],
      ];

const percent = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(1)}%`;

const dbMatch = (m: AgentMetrics): Row => {
  const checked = m.db_match_count + m.db_mismatch_count;
  return checked > 0
    ? ['DB Match', `${m.db_match_count} match / ${m.db_mismatch_count} mismatch (${percent(m.db_match_count, checked)})`]
    : ['DB Match', `not checked: ${m.db_not_checked}`];
};

const termination = (m: AgentMetrics): Row[] => {
  const rows: Row[] = [
    ['Normal Stop', `${m.termination_user_stop + m.termination_agent_stop} (user ${m.termination_user_stop} / agent ${m.termination_agent_stop})`],
  ];
  if (m.termination_max_steps > 0) rows.push(['Max Steps', String(m.termination_max_steps)]);
  if (m.termination_error > 0) rows.push(['Error', String(m.termination_error)]);
  if (m.termination_infrastructure_error > 0) rows.push(['Infra Error', String(m.termination_infrastructure_error)]);
  return rows;
};

const parts = (total: number, named: readonly (readonly [number, string])[]): string => {
  const shown = named.filter(([n]) => n > 0).map(([n, name]) => `${n} ${name}`);
  return shown.length === 0 ? String(total) : `${total} (${shown.join(', ')})`;
};

const usageRow = (label: string, u: RoleUsage): Row => [
  label,
  `${u.calls} calls, ${parts(u.prompt_tokens, [[u.cache_read_tokens, 'cache read'], [u.cache_write_tokens, 'cache write']])} prompt + ` +
    `${parts(u.completion_tokens, [[u.reasoning_tokens, 'reasoning']])} completion tokens, ${costText(u)}`,
];

const usageRows = (usage: UsageTotals): Row[] => [
  'blank',
  section('Tokens and Cost'),
  ...COST_ROLES.map((role) => usageRow(COST_ROLE_LABELS[role], usage[role])),
  usageRow('Total', usage.total),
];

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `± half-width` of a 95% CI, or nothing when the standard error cannot be estimated. */
const plusMinus = (bar: { readonly se: number | null; readonly ci_high: number | null; readonly value: number }, digits: number): string =>
  bar.se === null || bar.ci_high === null ? '' : ` ± ${(bar.ci_high - bar.value).toFixed(digits)}`;

const averageReward = (m: AgentMetrics, bars: RunErrorBars | null): string => {
  if (m.total_simulations === 0) return 'n/a';
  if (bars === null) return m.avg_reward.toFixed(4);
  const { avg_reward: a } = bars;
  const shape = a.trials_per_task === null ? `${plural(a.tasks, 'task')}, ${a.simulations} simulations` : `${plural(a.tasks, 'task')} × ${plural(a.trials_per_task, 'trial')}`;
  return `${m.avg_reward.toFixed(4)}${plusMinus(a, 4)} (95% CI, clustered by task, ${shape})`;
};

const passHatKText = (value: number, bar: PassHatKError | undefined): string =>
  bar === undefined
    ? value.toFixed(3)
    : `${value.toFixed(3)}${plusMinus(bar, 3)} (95% CI over ${plural(bar.tasks, 'task')}` +
      `${bar.tasks_left_out > 0 ? `; ${plural(bar.tasks_left_out, 'task')} with fewer than ${bar.k} trials left out` : ''})`;

/** The reference's pass^k, then any larger k the error bars reach over the tasks that have k trials. */
const passHatKRows = (m: AgentMetrics, bars: RunErrorBars | null): Row[] => {
  const byK = new Map((bars?.pass_hat_ks ?? []).map((b) => [b.k, b]));
  const reference = Object.entries(m.pass_hat_ks)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, v]): Row => [`  Pass^${k}`, passHatKText(v, byK.get(Number(k)))]);
  const beyond = [...byK.values()].filter((b) => !(b.k in m.pass_hat_ks)).map((b): Row => [`  Pass^${b.k}`, passHatKText(b.value, b)]);
  return [...reference, ...beyond];
};

const varianceRows = (bars: RunErrorBars): Row[] => [
  'blank',
  section('Where the Variance Is'),
  ['Between Tasks', bars.variance.between_task.toFixed(4)],
  ['Within Tasks', bars.variance.within_task.toFixed(4)],
  ['Tasks Whose Trials Disagree', `${bars.variance.disagreeing_tasks} of ${bars.avg_reward.tasks}`],
];

export const summaryTable = (m: AgentMetrics, usage?: UsageTotals, bars: RunErrorBars | null = null): string => {
  const breakdown = Object.entries(m.reward_breakdown);
  const rows: Row[] = [
    section('Overview'),
    ...overview(m),
    'blank',
    section('Reward Metrics'),
    // Nothing evaluated (e.g. every simulation an infrastructure error): no average to show.
    ['Average Reward', averageReward(m, bars)],
    ...passHatKRows(m, bars),
    // The reference's metric: the agent's cost alone (the roles' costs are under Tokens and Cost).
    ['Avg Agent Cost/Conversation', Number.isNaN(m.avg_agent_cost) ? 'n/a' : `$${m.avg_agent_cost.toFixed(4)}`],
    'blank',
    section('DB Match'),
    dbMatch(m),
    'blank',
    section('Termination'),
    ...termination(m),
    ...(bars === null ? [] : varianceRows(bars)),
    ...(usage === undefined ? [] : usageRows(usage)),
    ...(breakdown.length > 0
      ? ['blank' as const, section('Reward Breakdown'), ...breakdown.map(([k, v]): Row => [`  ${k}`, v.toFixed(3)])]
      : []),
  ];
  // Label/value rows are aligned together across sections; titles and blank lines sit between them.
  const aligned = tableLines(rows.filter((r): r is readonly [string, string] => r !== 'blank' && r[1] !== ''));
  let next = 0;
  return rows.map((r) => (r === 'blank' ? '' : r[1] === '' ? r[0] : aligned[next++]!)).join('\n');
};

/** The summary of a run's results: the reference's metrics, each score with its error bar, tokens and cost. */
export const resultsSummary = (results: Pick<Results, 'info' | 'simulations'>): string =>
  summaryTable(computeMetrics(results), resultsUsage(results), runErrorBars(results.simulations));
