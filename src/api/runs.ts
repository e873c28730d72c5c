// Runs: the launch body, a run and its counts, metrics and usage, listings, events, comparisons and DB diffs.
import { z } from 'zod';
import { count } from './common.ts';
import { MAX_NAME_LENGTH, RecordedRunConfigSchema, RunConfigSchema, plainText } from '../core/schemas/run-config.ts';
import { PairedComparisonSchema, RunErrorBarsSchema } from '../core/schemas/statistics.ts';
import { TerminationReasonSchema } from '../core/schemas/simulation.ts';
import { PyFloatSchema, pyNumber } from '../core/schemas/py-types.ts';
import { RoleUsageSchema, UsageByRoleSchema, UsdSchema } from '../core/schemas/usage.ts';

/**
 * POST /v1/runs: exactly the `tau2 run` configuration, nothing else (a misspelt field is refused, never
 * dropped). The provider endpoint is the server's, never the caller's.
 */
export const RunRequestSchema = RunConfigSchema.strict();
export type RunRequest = z.input<typeof RunRequestSchema>;

/**
 * POST /v1/runs may add, beside the configuration, a goal for adding trials in rounds: `target_ci_width` (the
 * average reward's anytime-valid 95% interval at most this wide), or `compare_to` (a run id of the caller's) with
 * `until_resolved` (until the paired difference to that run is resolved); either stops at `max_trials` per task
 * (default 10, within the operator's trial and episode limits).
 */
const roundsShape = {
  target_ci_width: pyNumber(z.number().gt(0).lte(1)).optional(),
  compare_to: plainText().min(1).max(MAX_NAME_LENGTH).optional(),
  until_resolved: z.boolean().optional(),
  max_trials: pyNumber(z.number().int().positive()).optional(),
};

type RoundsFields = { readonly [K in keyof typeof roundsShape]?: z.infer<(typeof roundsShape)[K]> };

/** The rules between the rounds fields, each refusal naming its field. */
const withRoundsRules = <S extends z.ZodType<RoundsFields>>(schema: S) =>
  schema
    .refine((r) => r.target_ci_width === undefined || r.compare_to === undefined, { message: 'target_ci_width and compare_to exclude each other', path: ['compare_to'] })
    .refine((r) => (r.compare_to !== undefined) === (r.until_resolved === true), { message: 'compare_to goes with until_resolved: true', path: ['until_resolved'] })
    .refine((r) => r.max_trials === undefined || r.target_ci_width !== undefined || r.compare_to !== undefined, {
      message: 'max_trials needs target_ci_width or compare_to with until_resolved',
      path: ['max_trials'],
    });

export const RunRoundsSchema = withRoundsRules(z.strictObject(roundsShape));
export type RunRounds = z.infer<typeof RunRoundsSchema>;

/** The POST /v1/runs body: the configuration and the optional rounds goal. */
export const RunLaunchSchema = withRoundsRules(RunConfigSchema.safeExtend(roundsShape).strict());

/**
 * Why a run adding rounds stopped: the target width reached, the difference resolved, `max_trials` spent, the
 * compared run's trials all paired, or a round refused by the tenant's quotas (`error` says which).
 */
export const RunStopReasonSchema = z.enum(['ci_width_reached', 'resolved', 'max_trials', 'baseline_trials', 'quota_exceeded']);
export type RunStopReason = z.infer<typeof RunStopReasonSchema>;

/**
 * `running` until every episode has finished (`completed`) or the run was cancelled; `failed` when it could
 * not be started (its `error` says why).
 */
export const RunStatusSchema = z.enum(['running', 'completed', 'cancelled', 'failed']);
export type RunStatus = z.infer<typeof RunStatusSchema>;


/** A float metric: a plain number, or the PyFloat `parsePyJson` yields for it (e.g. `0.0`). */
const metric = z.union([z.number(), PyFloatSchema]).transform((v): number => (typeof v === 'number' ? v : v.value)).meta({ type: 'number' });

/**
 * Episodes of a run by state. `done` = `passed` + `failed` + `infra_error` (finished); `failed` is a scored
 * simulation whose reward is not 1; `infra_error` ones are excluded from metrics and can be re-run;
 * `cancelled` never finished because the run was cancelled.
 */
export const RunCountsSchema = z.object({
  total: count,
  pending: count,
  running: count,
  done: count,
  passed: count,
  failed: count,
  infra_error: count,
  cancelled: count,
});
export type RunCounts = z.infer<typeof RunCountsSchema>;

/** The reference's metrics dict over the simulations finished so far: avg_reward, …, pass_hat_1, pass_hat_2, … */
export const RunMetricsSchema = z
  .object({
    avg_reward: metric,
    avg_agent_cost: metric,
    total_simulations: count,
    total_tasks: count,
    infra_error_count: count,
  })
  .catchall(metric);
export type RunMetrics = z.infer<typeof RunMetricsSchema>;

export const RunCreatedSchema = z.object({ run_id: z.string(), status: RunStatusSchema });
export type RunCreated = z.infer<typeof RunCreatedSchema>;

const RunFieldsSchema = z.object({
  id: z.string(),
  status: RunStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  /** The schedule that launched the run, or null for a run started by POST /v1/runs. */
  schedule_id: z.string().nullable(),
  /** Why a `failed` run could not be started, or why a run was stopped (e.g. a quota); null otherwise. */
  error: z.string().nullable(),
  /** As the run records it: a fork group's also names its origin (`fork_of`). */
  config: RecordedRunConfigSchema,
  counts: RunCountsSchema,
  /** The run's goal for adding trials in rounds (max_trials filled in), or null for a run of fixed size. */
  rounds: RunRoundsSchema.nullable(),
  /** Why a run adding rounds stopped adding them; null while it adds them, and for a run of fixed size. */
  stop_reason: RunStopReasonSchema.nullable(),
});

/**
 * What the run's model calls cost as they were made (every role and every attempt, finished or not): the spend
 * its tenant's budget counts. `in_flight` calls count at the upper bound reserved for them until they return.
 */
export const MeteredSpendSchema = z.object({ usd: UsdSchema, calls: count, in_flight: count });
export type MeteredSpend = z.infer<typeof MeteredSpendSchema>;

/**
 * Tokens and cost of the run's finished simulations by role (agent, user, NL-assertion judge, retrieval tools,
 * reviewer) and in total. A role's `cost` counts its priced calls; `unpriced_models` names the models without a
 * known price, whose calls count in the tokens only. `metered` is null for a run read from a results file, which
 * keeps no ledger.
 */
export const RunUsageSchema = UsageByRoleSchema.extend({ total: RoleUsageSchema, metered: MeteredSpendSchema.nullable() });
export type RunUsage = z.infer<typeof RunUsageSchema>;


/** A run's infrastructure errors grouped by reason, most frequent first (the tasks each ended, once each). */
export const InfraErrorGroupSchema = z.object({ reason: z.string(), count, task_ids: z.array(z.string()) });

export const RunSchema = RunFieldsSchema.extend({
  metrics: RunMetricsSchema,
  /** The metrics' error bars (95% CI clustered by task, pass^k, variance parts); null before anything is evaluated. */
  error_bars: RunErrorBarsSchema.nullable(),
  usage: RunUsageSchema,
  infra_errors: z.array(InfraErrorGroupSchema),
  /** The most model calls of the run in flight at once, as its provider's gate counted them (null: not known). */
  peak_calls_in_flight: count.nullable(),
});
export type Run = z.infer<typeof RunSchema>;

export const RunKindSchema = z.enum(['evaluation', 'external']);
export type RunKind = z.infer<typeof RunKindSchema>;

export const RunListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  status: RunStatusSchema.optional(),
  domain: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  /** Runs whose agent or user model is this one. */
  model: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  /** Runs of this retrieval configuration (banking_knowledge). */
  retrieval_config: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  /** `evaluation`: runs whose agent and user are played by the run's models; `external`: runs whose agent or user the caller plays (agent-driven episodes, OpenEnv sessions). */
  kind: RunKindSchema.optional(),
});
/** What a run listing can be narrowed to (every query field but the page size). */
export type RunListFilter = Partial<Omit<RunListQuery, 'limit'>>;
export type RunListQuery = z.infer<typeof RunListQuerySchema>;
export const RunListSchema = z.object({ runs: z.array(RunFieldsSchema) });

/** Two of the caller's runs: A the baseline, B compared with it. */
export const CompareQuerySchema = z.object({
  a: z.string().min(1).max(MAX_NAME_LENGTH).describe('run A, the baseline'),
  b: z.string().min(1).max(MAX_NAME_LENGTH).describe('run B, compared with A'),
});
export const CompareSchema = PairedComparisonSchema.extend({ a: z.string(), b: z.string() });
export type Compare = z.infer<typeof CompareSchema>;

/** GET /v1/runs/:id/results: `messages=false` leaves each simulation's messages out (null), for a light read. */
export const RunResultsQuerySchema = z.object({ messages: z.enum(['true', 'false']).default('true') });

export type RunList = z.infer<typeof RunListSchema>;

export const RerunSchema = RunCreatedSchema.extend({ rerun: count });
export type Rerun = z.infer<typeof RerunSchema>;

// Server-Sent Events of GET /v1/runs/:id/events.
export const RUN_EVENT = { simulation: 'simulation', status: 'status' } as const;

export const RunStatusEventSchema = z.object({ run_id: z.string(), status: RunStatusSchema, counts: RunCountsSchema });
export type RunStatusEvent = z.infer<typeof RunStatusEventSchema>;

/** One finished simulation (scored or infrastructure error). */
export const SimulationEventSchema = z.object({
  run_id: z.string(),
  simulation_id: z.string(),
  task_id: z.string(),
  trial: count,
  termination_reason: TerminationReasonSchema,
  reward: z.number().nullable(),
  agent_cost: z.number().nullable(),
  duration: z.number(),
  counts: RunCountsSchema,
});
export type SimulationEvent = z.infer<typeof SimulationEventSchema>;

export { DbDiffSchema } from '../core/schemas/db-diff.ts';
export type { DbDiff } from '../core/schemas/db-diff.ts';
