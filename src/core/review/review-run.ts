// Reviewing a results file's simulations (reference: review, run_full_review and run_user_review in
// src/tau2/scripts/review_conversation.py): the selection by task ids and limit, each simulation's review
// (a failure leaves an empty review, as there), where the review is attached, and the totals.
import { pyRepr } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { Results, SimulationRun } from '../schemas/simulation.ts';
import { reviewSimulation } from './reviewer.ts';
import type { ReviewContext, Reviewer, ReviewMode, SimulationReview } from './reviewer.ts';

export interface ReviewSelection {
  readonly taskIds: readonly string[] | null;
  readonly limit: number | null;
}

/** The simulations to review, and the lines the reference prints about the selection. */
export const selectForReview = (results: Results, selection: ReviewSelection): { results: Results; notes: string[] } => {
  const notes: string[] = [];
  let simulations = results.simulations;
  if (selection.taskIds !== null && selection.taskIds.length > 0) {
    const wanted = new Set(selection.taskIds);
    simulations = simulations.filter((s) => wanted.has(s.task_id));
    notes.push(`  Filtered to ${simulations.length}/${results.simulations.length} simulations for task_ids: ${pyRepr([...selection.taskIds])}`);
  }
  if (selection.limit !== null && selection.limit > 0 && selection.limit < simulations.length) {
    simulations = simulations.slice(0, selection.limit);
    notes.push(`  Limited to first ${selection.limit} simulations`);
  }
  return { results: { ...results, simulations }, notes };
};

/** What a simulation gets when its review failed: an empty review, no authentication verdict. */
const emptyReview = (mode: ReviewMode): SimulationReview =>
  mode === 'full'
    ? { mode, review: { summary: '', agent_error: false, user_error: false, critical_user_error: false, has_errors: false, errors: [], cost: null }, auth: null }
    : { mode, review: { summary: '', user_error: false, critical_user_error: false, has_errors: false, errors: [], cost: null } };

/** The policy and user guidelines a results file records, which `tau2 review` reviews against. */
export const recordedContext = (results: Results): ReviewContext => ({
  policy: results.info.environment_info.policy,
  simulationGuidelines: results.info.user_info.global_simulation_guidelines,
});

/**
 * One simulation's review; null when its task is not in the file (it is skipped). A failure (provider, missing
 * policy or guidelines) is reported through `onError` and gives the empty review.
 */
export const reviewOne = async (
  results: Results,
  simulation: SimulationRun,
  mode: ReviewMode,
  reviewer: Reviewer,
  context: ReviewContext,
  onError: (simulation: SimulationRun, error: unknown) => void,
): Promise<SimulationReview | null> => {
  const task = results.tasks.find((t) => t.id === simulation.task_id);
  if (task === undefined) return null;
  try {
    return await reviewSimulation(simulation, task, mode, context, reviewer);
  } catch (error) {
    onError(simulation, error);
    return emptyReview(mode);
  }
};

/** The simulation with its review where the reference keeps it: `review` and `auth_classification`, or `user_only_review`. */
export const withReview = (simulation: SimulationRun, outcome: SimulationReview): SimulationRun =>
  outcome.mode === 'full'
    ? { ...simulation, review: outcome.review as unknown as PyValue, auth_classification: outcome.auth as unknown as PyValue }
    : { ...simulation, user_only_review: outcome.review as unknown as PyValue };

export interface ReviewTotals {
  readonly reviewed: number;
  readonly withErrors: number;
  readonly agentErrors: number;
  readonly userErrors: number;
  readonly authSucceeded: number;
  readonly authFailed: number;
  readonly authNotNeeded: number;
  /** USD, review and authentication calls. */
  readonly cost: number;
}

export const reviewTotals = (outcomes: readonly SimulationReview[]): ReviewTotals => {
  let cost = 0;
  const totals = { reviewed: outcomes.length, withErrors: 0, agentErrors: 0, userErrors: 0, authSucceeded: 0, authFailed: 0, authNotNeeded: 0 };
  for (const outcome of outcomes) {
    if (outcome.review.has_errors) totals.withErrors += 1;
    cost += outcome.review.cost?.value ?? 0;
    if (outcome.mode === 'user') {
      totals.userErrors += outcome.review.errors.length;
      continue;
    }
    for (const error of outcome.review.errors) {
      if (error.source === 'agent') totals.agentErrors += 1;
      if (error.source === 'user') totals.userErrors += 1;
    }
    const auth = outcome.auth;
    if (auth === null) continue;
    if (auth.status === 'succeeded') totals.authSucceeded += 1;
    else if (auth.status === 'failed') totals.authFailed += 1;
    else totals.authNotNeeded += 1;
    cost += auth.cost?.value ?? 0;
  }
  return { ...totals, cost };
};
