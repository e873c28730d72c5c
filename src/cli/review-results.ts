// Reviews every simulation of a results file, at most `concurrency` at once (p-limit), attaching each review
// where the reference keeps it; shared by `tau2-edge review` and `run --auto-review`.
import pLimit from 'p-limit';
import { reviewOne, reviewTotals, withReview } from '../core/review/review-run.ts';
import type { ReviewTotals } from '../core/review/review-run.ts';
import type { Reviewer, ReviewMode, SimulationReview } from '../core/review/reviewer.ts';
import type { Results, SimulationRun } from '../core/schemas/simulation.ts';

export interface ReviewHooks {
  /** Called as each review finishes, in the order they finish. */
  readonly onReviewed?: (simulation: SimulationRun, outcome: SimulationReview) => void;
  readonly onError?: (simulation: SimulationRun, error: unknown) => void;
}

export const reviewResults = async (
  results: Results,
  mode: ReviewMode,
  reviewer: Reviewer,
  concurrency: number,
  hooks: ReviewHooks = {},
): Promise<{ results: Results; totals: ReviewTotals }> => {
  const limit = pLimit(concurrency);
  const onError = hooks.onError ?? (() => undefined);
  const outcomes = await Promise.all(
    results.simulations.map((simulation) =>
      limit(async () => {
        const outcome = await reviewOne(results, simulation, mode, reviewer, onError);
        if (outcome !== null) hooks.onReviewed?.(simulation, outcome);
        return outcome;
      }),
    ),
  );
  const simulations = results.simulations.map((s, i) => (outcomes[i] ? withReview(s, outcomes[i]) : s));
  return { results: { ...results, simulations }, totals: reviewTotals(outcomes.filter((o) => o !== null)) };
};
