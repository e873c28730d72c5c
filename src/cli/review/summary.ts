// How a review reads in the terminal: one simulation's review (`--show-details`), the totals of a review
// run, and the score before and after a repair, as plain lines in the style of the run summary.
import type { ReviewTotals } from '../../core/review/review-run.ts';
import type { SimulationReview } from '../../core/review/reviewer.ts';
import { costText } from '../../core/metrics/role-usage.ts';
import type { RoleUsage } from '../../core/schemas/usage.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { computeMetrics } from '../../core/metrics/agent-metrics.ts';
import type { RepairTally } from '../../core/review/repair.ts';

const errorLine = (who: string, e: { severity: string | null; turn_idx: number | null; error_tags: readonly string[]; reasoning: string; correct_behavior: string | null }): string => {
  const where = e.turn_idx === null ? '' : ` turn ${e.turn_idx}`;
  const tags = e.error_tags.length > 0 ? ` ${e.error_tags.join(', ')}` : '';
  const fix = e.correct_behavior === null ? '' : ` (instead: ${e.correct_behavior})`;
  return `  - [${who}${e.severity === null ? '' : ` ${e.severity}`}]${where}${tags}: ${e.reasoning}${fix}`;
};

/** One simulation's review: its summary, each error, and the authentication verdict. */
export const reviewDetails = (simulationId: string, taskId: string, outcome: SimulationReview): string[] => {
  const lines = [`\nSimulation: ${simulationId} (Task: ${taskId})`, `  ${outcome.review.summary || '(no summary)'}`];
  if (outcome.mode === 'full') {
    lines.push(...outcome.review.errors.map((e) => errorLine(e.source, e)));
    if (outcome.auth !== null) lines.push(`  authentication: ${outcome.auth.status}${outcome.auth.reasoning ? ` (${outcome.auth.reasoning})` : ''}`);
  } else {
    lines.push(...outcome.review.errors.map((e) => errorLine('user', e)));
  }
  if (outcome.review.errors.length === 0) lines.push('  no errors');
  return lines;
};

const pad = (label: string): string => label.padEnd(24);

/** The totals of a review run; its cost as its calls were priced (an unpriced reviewer is named, never $0). */
export const reviewSummary = (mode: 'full' | 'user', totals: ReviewTotals, usage: RoleUsage): string => {
  const lines = ['=== LLM Judge Review ===', `${pad('Reviewed')}${totals.reviewed} (with errors: ${totals.withErrors})`];
  if (mode === 'full') lines.push(`${pad('Agent Errors')}${totals.agentErrors}`);
  lines.push(`${pad('User Errors')}${totals.userErrors}`);
  if (mode === 'full') {
    const decided = totals.authSucceeded + totals.authFailed;
    const rate = decided > 0 ? ` (${((totals.authSucceeded / decided) * 100).toFixed(1)}%)` : '';
    lines.push(`${pad('Auth Result')}succeeded ${totals.authSucceeded} / failed ${totals.authFailed}${rate}, not needed ${totals.authNotNeeded}`);
  }
  lines.push(`${pad('Review Cost')}${costText(usage)}`);
  return lines.join('\n');
};

const passHat1 = (results: Pick<Results, 'info' | 'simulations'>): string => (computeMetrics(results).pass_hat_ks[1] ?? 0).toFixed(2);

/** The score as run beside the score with the simulator's detected errors repaired, and how many repairs held. */
export const repairSummary = (asRun: Results, repaired: Results, tally: RepairTally): string =>
  `pass^1 ${passHat1(asRun)} as run → ${passHat1(repaired)} with user-simulator errors repaired ` +
  `(${tally.repaired} simulations repaired, ${tally.free} now free of simulator errors, ${tally.repaired - tally.free} not)`;
