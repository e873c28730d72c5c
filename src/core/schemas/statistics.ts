// The statistics beside the reference's metrics: one run's error bars and the paired comparison of two runs
// (src/core/metrics/error-bars.ts and paired-comparison.ts compute them). Plain JSON numbers, snake_case keys.
import { z } from 'zod';
import { pyNumber } from './py-types.ts';

const count = z.number().int().nonnegative();
/** A real figure; API bodies are read with parsePyJson, which yields a PyFloat for a float literal. */
const real = pyNumber(z.number());
/** A figure that cannot be estimated from the data (e.g. a standard error over one task) is null. */
const estimate = real.nullable();

const ErrorBarFields = {
  value: real,
  se: estimate.describe('standard error'),
  ci_low: estimate.describe('value − 1.96·se'),
  ci_high: estimate.describe('value + 1.96·se'),
};

export const AverageRewardErrorSchema = z.object({
  ...ErrorBarFields,
  tasks: count,
  simulations: count,
  trials_per_task: count.nullable().describe('the trials every task has, or null when tasks differ'),
});

export const PassHatKErrorSchema = z.object({
  k: count,
  ...ErrorBarFields,
  tasks: count.describe('tasks with at least k trials, the estimate is over these'),
  tasks_left_out: count.describe('tasks with fewer than k trials'),
});

export const VariancePartsSchema = z.object({
  between_task: real.describe('Σ_t n_t (r̄_t − r̄)² / n'),
  within_task: real.describe('Σ_t Σ_i (r_i − r̄_t)² / n; the two parts sum to the variance of the rewards'),
  disagreeing_tasks: count.describe('tasks whose trials do not all have the same reward'),
});

export const RunErrorBarsSchema = z.object({
  avg_reward: AverageRewardErrorSchema.describe('average reward ± 95% CI, standard error clustered by task'),
  pass_hat_ks: z.array(PassHatKErrorSchema).describe('pass^k ± 95% CI for k = 1 … the most trials any task has'),
  variance: VariancePartsSchema,
});
export type RunErrorBars = z.infer<typeof RunErrorBarsSchema>;
export type AverageRewardError = z.infer<typeof AverageRewardErrorSchema>;
export type PassHatKError = z.infer<typeof PassHatKErrorSchema>;
export type VarianceParts = z.infer<typeof VariancePartsSchema>;

export const ChangedTaskSchema = z.object({ task_id: z.string(), difference: real.describe('b_t − a_t') });
export type ChangedTask = z.infer<typeof ChangedTaskSchema>;

export const PairedComparisonSchema = z.object({
  difference: estimate.describe('mean over shared tasks of b_t − a_t (per-task mean rewards)'),
  se: estimate.describe('sd(d_t, ddof = 1) / sqrt(shared_tasks)'),
  ci_low: estimate.describe('difference − t(0.975, S − 1)·se'),
  ci_high: estimate.describe('difference + t(0.975, S − 1)·se'),
  p_value: estimate.describe('two-sided paired t-test (scipy.stats.ttest_rel(b, a))'),
  resolved: z.boolean().describe('the 95% CI excludes 0'),
  shared_tasks: count,
  mdd: estimate.describe('minimum detectable difference at 80% power, α = 0.05: (z(0.975) + z(0.8))·se'),
  trials_needed: count.nullable().describe('trials per task at which the observed difference would be detected with 80% power'),
  improved: z.array(ChangedTaskSchema).describe('tasks B passes in every trial and A in none, by |difference|'),
  regressed: z.array(ChangedTaskSchema).describe('tasks A passes in every trial and B in none'),
  only_a: z.array(z.string()).describe('tasks only A evaluated, left out'),
  only_b: z.array(z.string()).describe('tasks only B evaluated, left out'),
});
export type PairedComparison = z.infer<typeof PairedComparisonSchema>;
