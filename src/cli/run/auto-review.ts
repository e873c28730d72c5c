// `run --auto-review [--review-mode full|user] [--review-model M]`: the LLM conversation review of each finished
// simulation, as the reference's run does (reference: run_auto_review in src/tau2/runner/batch.py). It runs on
// the CLI side once the run's results are in, for a worker run and an --in-process run alike, reviewing against
// the run's policy and the plain user-simulator guidelines, up to --max-concurrency at once. Unlike the
// reference, a review that fails leaves an empty review instead of failing the simulation.
import { Command, Option } from 'commander';
import { DEFAULT_REVIEW_MODEL } from '../../core/review/reviewer.ts';
import type { ReviewMode } from '../../core/review/reviewer.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { loadDomain } from '../data.ts';
import { clientFor, missingCredentials } from './models.ts';
import { reviewResults } from '../review/results.ts';
import { reviewSummary } from '../review/summary.ts';

export interface AutoReview {
  readonly mode: ReviewMode;
  readonly model: string;
}

export interface AutoReviewFlagValues {
  readonly autoReview?: boolean;
  readonly reviewMode?: string;
  readonly reviewModel?: string;
}

export const addAutoReviewFlags = (command: Command): Command =>
  command
    .option('--auto-review', 'review each simulation with the LLM conversation reviewer (run here once the results are in, with a worker or --in-process)')
    .addOption(
      new Option('--review-mode <mode>', "with --auto-review: 'full' (agent and user errors, default) or 'user' (user simulator only)").choices(['full', 'user']),
    )
    .option('--review-model <model>', `with --auto-review: the reviewer model (default: ${DEFAULT_REVIEW_MODEL})`);

/** The auto-review of a run, or null; refused before the run starts when the reviewer model cannot be called. */
export const autoReviewFrom = (values: AutoReviewFlagValues, llmBaseUrl: string | null): AutoReview | null => {
  if (values.autoReview !== true) return null;
  const review = { mode: (values.reviewMode ?? 'full') as ReviewMode, model: values.reviewModel ?? DEFAULT_REVIEW_MODEL };
  if (review.model.length > 256) throw new Error('--review-model: at most 256 characters');
  const missing = missingCredentials([review.model], llmBaseUrl, process.env);
  if (missing !== null) throw new Error(`--review-model: ${missing}`);
  return review;
};

/** The run's results with each simulation reviewed (infrastructure errors are not: they never ran). */
export const reviewRun = async (
  results: Results,
  review: AutoReview,
  llmBaseUrl: string | null,
  concurrency: number,
  out: (line: string) => void,
): Promise<Results> => {
  const { guidelines } = await loadDomain(results.info.environment_info.domain_name);
  out(`auto-review: ${review.mode} review of each simulation by ${review.model}`);
  const reviewed = await reviewResults(results, review.mode, { client: clientFor(llmBaseUrl ?? undefined), model: review.model }, concurrency, {
    context: { policy: results.info.environment_info.policy, simulationGuidelines: guidelines.plain },
    include: (simulation) => simulation.termination_reason !== 'infrastructure_error',
    onError: (simulation, error) => out(`auto-review: simulation ${simulation.id} not reviewed: ${error instanceof Error ? error.message : String(error)}`),
  });
  out(reviewSummary(review.mode, reviewed.totals, reviewed.usage));
  return reviewed.results;
};
