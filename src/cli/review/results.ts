// Reviews the simulations of a results file, at most `concurrency` at once (p-limit), attaching each review
// where the reference keeps it; shared by `tau2-edge review` and `run --auto-review`.
import pLimit from 'p-limit';
import { recordedContext, reviewOne, reviewTotals, withReview } from '../../core/review/review-run.ts';
import type { ReviewTotals } from '../../core/review/review-run.ts';
import type { ReviewContext, Reviewer, ReviewMode, SimulationReview } from '../../core/review/reviewer.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { meteredClient } from '../../core/llm/meter.ts';
import { addRoleUsage, emptyRoleUsage, participantModels, recordedUsage, usageLedger, withRoleUsage } from '../../core/metrics/role-usage.ts';
import type { RoleUsage } from '../../core/schemas/usage.ts';

export interface ReviewRunOptions {
  /** The policy and guidelines to review against; by default those the results file records. */
  readonly context?: ReviewContext;
  /** Which simulations to review; by default all (the others are kept as they are). */
  readonly include?: (simulation: SimulationRun) => boolean;
  /** Called as each review finishes, in the order they finish. */
  readonly onReviewed?: (simulation: SimulationRun, outcome: SimulationReview) => void;
  readonly onError?: (simulation: SimulationRun, error: unknown) => void;
}

export const reviewResults = async (
  results: Results,
  mode: ReviewMode,
  reviewer: Reviewer,
  concurrency: number,
  options: ReviewRunOptions = {},
): Promise<{ results: Results; totals: ReviewTotals; usage: RoleUsage }> => {
  const limit = pLimit(concurrency);
  const onError = options.onError ?? (() => undefined);
  const context = options.context ?? recordedContext(results);
  const outcomes = await Promise.all(
    results.simulations.map((simulation) =>
      limit(async () => {
        if (options.include !== undefined && !options.include(simulation)) return null;
        // The review's calls are recorded in the simulation's usage, as the review role's.
        const spent = usageLedger();
        const outcome = await reviewOne(results, simulation, mode, { ...reviewer, client: meteredClient(reviewer.client, spent.meter) }, context, onError);
        if (outcome === null) return null;
        options.onReviewed?.(simulation, outcome);
        return { outcome, spent: spent.usage() };
      }),
    ),
  );
  const models = participantModels(results.info);
  // A simulation that records its usage gets the review's added; one of a reference file stays as the reference writes it.
  const simulations = results.simulations.map((s, i) => {
    const reviewed = outcomes[i];
    if (!reviewed) return s;
    const withIt = withReview(s, reviewed.outcome);
    return recordedUsage(s) === null ? withIt : withRoleUsage(withIt, 'review', reviewed.spent, models);
  });
  const reviewed = outcomes.flatMap((o) => (o === null ? [] : [o]));
  return {
    results: { ...results, simulations },
    totals: reviewTotals(reviewed.map((o) => o.outcome)),
    usage: reviewed.reduce((sum, o) => addRoleUsage(sum, o.spent), emptyRoleUsage()),
  };
};
