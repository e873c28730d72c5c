// The HTTP API's bodies (versioned under /v1), built from the engine's schemas. Bodies that carry Python
// values (run configs, results, simulations) are JSON written with `dumpsPy`: read them with `parsePyJson`
// so int/float kinds survive, then parse with these schemas.
//
//   GET    /v1/health                         → HealthSchema (no auth)
//   POST   /v1/runs                           RunRequestSchema → 202 RunCreatedSchema (Idempotency-Key honoured)
//   GET    /v1/runs?limit&status              → RunListSchema (newest first)
//   GET    /v1/runs/:id                       → RunSchema
//   GET    /v1/runs/:id/results               → ResultsSchema (the reference results-file format)
//   GET    /v1/runs/:id/events                → Server-Sent Events: `simulation` (SimulationEventSchema) and
//                                               `status` (RunStatusEventSchema); the stream ends after the
//                                               status event of a finished run. Event ids resume via Last-Event-ID.
//   GET    /v1/runs/:id/episodes?limit&after&status → RunEpisodesSchema (work-unit order, paged)
//   POST   /v1/runs/:id/cancel                → RunSchema (409 when the run already completed)
//   POST   /v1/runs/:id/rerun-infra-errors    → 202 RerunSchema
//   GET    /v1/compare?a=RUN&b=RUN            → CompareSchema (paired comparison on the tasks both runs evaluated)
//   GET    /v1/simulations/:id                → SimulationRunSchema (messages, reward_info)
//   POST   /v1/schedules                      ScheduleCreateSchema → 201 ScheduleSchema
//   GET    /v1/schedules                      → ScheduleListSchema
//   GET    /v1/schedules/:id                  → ScheduleSchema
//   PATCH  /v1/schedules/:id                  ScheduleUpdateSchema → ScheduleSchema
//   DELETE /v1/schedules/:id                  → 204
//   POST   /v1/admin/keys                     ApiKeyCreateSchema → 201 ApiKeyCreatedSchema (operator only)
//   GET    /v1/admin/keys                     → ApiKeyListSchema (operator only)
//   DELETE /v1/admin/keys/:id                 → ApiKeySchema, revoked (operator only)
//   GET    /v1/provider-credentials           → ProviderCredentialListSchema (the caller's; keys never shown)
//   PUT    /v1/provider-credentials/:provider ProviderCredentialPutSchema → ProviderCredentialSchema
//   DELETE /v1/provider-credentials/:provider → 204
//   GET    /v1/admin/tenants/:tenant/quotas   → TenantQuotasViewSchema (operator only)
//   PUT    /v1/admin/tenants/:tenant/quotas   TenantQuotasSchema → TenantQuotasViewSchema (operator only)
// Every failure answers ApiErrorSchema. With an API key configured, every route but /v1/health needs
// `Authorization: Bearer <key>`: the operator's or a tenant's; a tenant sees only its own runs, simulations and
// schedules (anything else is 404).
import { z } from 'zod';
import { MAX_NAME_LENGTH, RunConfigSchema, plainText } from './run-config.ts';
import { PairedComparisonSchema, RunErrorBarsSchema } from './statistics.ts';
import { TerminationReasonSchema } from './simulation.ts';
import { PyFloatSchema, pyNumber } from './py-types.ts';
import { RoleUsageSchema, UsageByRoleSchema, UsdSchema } from './usage.ts';
import { textOfBytes } from './text-bytes.ts';
import { isPyFloat } from '../py/index.ts';
import { CREDENTIAL_PROVIDERS } from '../llm/providers.ts';

export const API_PREFIX = '/v1';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

export const HealthSchema = z.object({ status: z.literal('ok') });

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

const count = z.number().int().nonnegative();

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
  config: RunConfigSchema,
  counts: RunCountsSchema,
  /** The run's goal for adding trials in rounds (max_trials filled in), or null for a run of fixed size. */
  rounds: RunRoundsSchema.nullable(),
  /** Why a run adding rounds stopped adding them; null while it adds them, and for a run of fixed size. */
  stop_reason: RunStopReasonSchema.nullable(),
});

/**
 * Tokens and cost of the run's finished simulations by role (agent, user, NL-assertion judge, retrieval tools,
 * reviewer) and in total. A role's `cost` counts its priced calls; `unpriced_models` names the models without a
 * known price, whose calls count in the tokens only.
 */
/**
 * What the run's model calls cost as they were made (every role and every attempt, finished or not): the spend
 * its tenant's budget counts. `in_flight` calls count at the upper bound reserved for them until they return.
 */
export const MeteredSpendSchema = z.object({ usd: UsdSchema, calls: count, in_flight: count });
export type MeteredSpend = z.infer<typeof MeteredSpendSchema>;

/** `metered` is null for a run read from a results file, which keeps no ledger. */
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

export const RunListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  status: RunStatusSchema.optional(),
  domain: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  /** Runs whose agent or user model is this one. */
  model: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  /** Runs of this retrieval configuration (banking_knowledge). */
  retrieval_config: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
});
/** What a run listing can be narrowed to (every query field but the page size). */
export type RunListFilter = Partial<Omit<RunListQuery, 'limit'>>;
export type RunListQuery = z.infer<typeof RunListQuerySchema>;
export const RunListSchema = z.object({ runs: z.array(RunFieldsSchema) });

/** GET /v1/runs/:id/results: `messages=false` leaves each simulation's messages out (null), for a light read. */
/** Two of the caller's runs: A the baseline, B compared with it. */
export const CompareQuerySchema = z.object({
  a: z.string().min(1).max(MAX_NAME_LENGTH).describe('run A, the baseline'),
  b: z.string().min(1).max(MAX_NAME_LENGTH).describe('run B, compared with A'),
});
export const CompareSchema = PairedComparisonSchema.extend({ a: z.string(), b: z.string() });
export type Compare = z.infer<typeof CompareSchema>;

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

/** GET /v1/simulations/:id/db-diff: where the final DB differs from the gold one, changed paths only. */
export const DbDiffSchema = z.object({
  simulation_id: z.string(),
  /** The recorded DB check's verdict; null when the task's reward has no DB check. */
  db_match: z.boolean().nullable(),
  differences: z.array(
    z.object({
      /** The agent's DB, or the user's (telecom's device). */
      db: z.enum(['agent', 'user']),
      path: z.array(z.string()),
      /** The value as JSON text; null where the key is absent. */
      gold: z.string().nullable(),
      predicted: z.string().nullable(),
    }),
  ),
});
export type DbDiff = z.infer<typeof DbDiffSchema>;

// Scheduled evaluations: the cron trigger launches each enabled schedule whose next_run_at has passed.
/** Longest interval between two launches of a schedule: a year. */
export const MAX_INTERVAL_MINUTES = 366 * 24 * 60;
const scheduleFields = {
  name: plainText().min(1),
  interval_minutes: pyNumber(z.number().int().positive().max(MAX_INTERVAL_MINUTES)),
  enabled: z.boolean(),
  run: RunRequestSchema,
};

export const ScheduleCreateSchema = z.strictObject({ ...scheduleFields, enabled: scheduleFields.enabled.default(true) });
export type ScheduleCreate = z.input<typeof ScheduleCreateSchema>;

export const ScheduleUpdateSchema = z
  .strictObject(scheduleFields)
  .partial()
  .refine((u) => Object.keys(u).length > 0, { message: 'Give at least one field to change' });
export type ScheduleUpdate = z.input<typeof ScheduleUpdateSchema>;

export const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  interval_minutes: z.number().int().positive(),
  enabled: z.boolean(),
  run: RunConfigSchema,
  next_run_at: z.string(),
  last_run_at: z.string().nullable(),
  last_run_id: z.string().nullable(),
  /** Why the last launch failed (the schedule stays enabled and is tried again at its next time); null after a launch. */
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleListSchema = z.object({ schedules: z.array(ScheduleSchema) });

// Tenants' API keys, administered by the operator (the API_KEY secret).
/** A tenant id: what every run and schedule of the tenant is filed under. */
export const TenantIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'Use 1 to 63 of a-z, 0-9, _ and -, starting with a letter or digit');

export const ApiKeyCreateSchema = z.strictObject({
  tenant: TenantIdSchema.refine((t) => t !== 'operator', 'operator is the operator key\'s own tenant'),
  name: plainText().min(1),
});
export type ApiKeyCreate = z.input<typeof ApiKeyCreateSchema>;

export const ApiKeySchema = z.object({
  id: z.string(),
  tenant: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; the key itself is shown once, at creation. */
  prefix: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyCreatedSchema = ApiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;
export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) });

// Bring-your-own provider: a tenant's own credentials, used by its runs. Keys are write-only.
export const ProviderNameSchema = z.enum(CREDENTIAL_PROVIDERS);
export type ProviderName = z.infer<typeof ProviderNameSchema>;

export const ProviderCredentialPutSchema = z.strictObject({
  /** For `openai`: any OpenAI-compatible endpoint (https, public); absent = api.openai.com. */
  base_url: z.string().max(2048).nullable().default(null),
  api_key: plainText(4096).min(1),
});
export type ProviderCredentialPut = z.input<typeof ProviderCredentialPutSchema>;

export const ProviderCredentialSchema = z.object({
  provider: ProviderNameSchema,
  base_url: z.string().nullable(),
  /** Always true: the key is stored, encrypted, and never returned. */
  key_set: z.literal(true),
  updated_at: z.string(),
});
export type ProviderCredential = z.infer<typeof ProviderCredentialSchema>;
export const ProviderCredentialListSchema = z.object({ credentials: z.array(ProviderCredentialSchema) });

/** A tenant's quotas (operator only); null = unlimited. */
const quota = pyNumber(z.number().int().nonnegative()).nullable();
export const TenantQuotasSchema = z.strictObject({
  /** Episodes pending or running over all the tenant's runs. */
  episodes_in_flight: quota.default(null),
  /** Episodes of runs launched since 00:00 UTC. */
  episodes_per_day: quota.default(null),
  schedules: quota.default(null),
  /** USD spent by simulations finished since 00:00 UTC (agent and user cost where prices are known). */
  usd_per_day: z.preprocess((v) => (isPyFloat(v) ? v.value : v), z.number().nonnegative().nullable()).default(null),
});
export type TenantQuotas = z.infer<typeof TenantQuotasSchema>;

export const TenantUsageSchema = z.object({
  episodes_in_flight: count,
  episodes_today: count,
  schedules: count,
  usd_today: UsdSchema,
});
export type TenantUsage = z.infer<typeof TenantUsageSchema>;
export const TenantQuotasViewSchema = z.object({ tenant: z.string(), quotas: TenantQuotasSchema, usage: TenantUsageSchema });
export type TenantQuotasView = z.infer<typeof TenantQuotasViewSchema>;

// Agent-driven episodes: the caller plays the agent over HTTP (the reference's AgentGymEnv), step by step.

const boundedName = plainText().min(1);
/** Bytes of one message's text or of one tool call's arguments. */
export const MAX_EPISODE_TEXT = 65_536;
/** Tool calls in one agent message. */
export const MAX_TOOL_CALLS = 32;
/** Task ids named by one batch of episodes. */
export const MAX_BATCH_TASKS = 10_000;

const EpisodeSettingsShape = {
  domain: boundedName,
  /**
   * The role the caller plays: the agent, against the simulated user (AgentGymEnv); or the user, against the
   * built-in LLM agent (UserGymEnv).
   */
  role: z.enum(['agent', 'user']).default('agent'),
  /** No user: the agent holds the user's tools too and ends with the `done` tool (telecom's solo mode). */
  solo: z.boolean().default(false),
  /** The simulated user's model (role agent). */
  llm_user: boundedName.optional(),
  llm_args_user: RunConfigSchema.shape.llm_args_user.optional(),
  /** The built-in agent's model (role user). */
  llm_agent: boundedName.optional(),
  llm_args_agent: RunConfigSchema.shape.llm_args_agent.optional(),
  /** The model grading NL assertions. */
  llm_judge: boundedName.optional(),
  seed: pyNumber(z.number().int()).optional(),
  /** The knowledge retrieval configuration and its settings (banking_knowledge), as in a run. */
  retrieval_config: RunConfigSchema.shape.retrieval_config.optional(),
  retrieval_config_kwargs: RunConfigSchema.shape.retrieval_config_kwargs.optional(),
  /** The reference's gym environment defaults: 100 steps, 10 errors. */
  max_steps: pyNumber(z.number().int().positive()).default(100),
  max_errors: pyNumber(z.number().int().positive()).default(10),
};
const noSoloUser = <S extends z.ZodType<{ solo: boolean; role: string }>>(schema: S): S =>
  schema.refine((e) => !(e.solo && e.role === 'user'), { message: 'Solo mode has no user to play', path: ['solo'] });

const { domain, ...otherSettings } = EpisodeSettingsShape;
export const EpisodeCreateSchema = noSoloUser(z.strictObject({ domain, task_id: boundedName, ...otherSettings }));
export type EpisodeCreate = z.infer<typeof EpisodeCreateSchema>;

/** Episodes of the same settings started at once: every task × trial (the operator's LIMIT_MAX_EPISODES_PER_RUN bounds them). */
export const EpisodeBatchSchema = noSoloUser(
  z.strictObject({ domain, task_ids: z.array(boundedName).min(1).max(MAX_BATCH_TASKS), num_trials: pyNumber(z.number().int().positive()).default(1), ...otherSettings }),
);
export const EpisodeBatchCreatedSchema = z.object({ run_id: z.string(), episode_ids: z.array(z.string()) });
export type EpisodeBatchCreated = z.infer<typeof EpisodeBatchCreatedSchema>;
export type EpisodeCreateInput = z.input<typeof EpisodeCreateSchema>;

/** A message in the reference's wire format (OpenAI chat-completions). */
const WireMessageSchema = z.record(z.string(), z.unknown()).meta({ description: 'An OpenAI chat-completions message' });
const ToolSchemaSchema = z.record(z.string(), z.unknown()).meta({ description: 'A tool in OpenAI function format' });

export const EpisodeObservationSchema = z.object({
  /** The new messages the agent sees: all of them at creation, after a step the tool results and the user's reply. */
  messages: z.array(WireMessageSchema),
  /** The domain policy, when the caller plays the agent. */
  policy: z.string().optional(),
  /** The user's system prompt (simulation guidelines and scenario), when the caller plays the user. */
  instructions: z.string().optional(),
  /** The caller's tools: the agent's (with `done`), or the user's (if the domain gives the user any). */
  tools: z.array(ToolSchemaSchema).optional(),
});

export const EpisodeCreatedSchema = z.object({
  episode_id: z.string(),
  run_id: z.string(),
  step: z.number().int(),
  done: z.boolean(),
  observation: EpisodeObservationSchema,
});
export type EpisodeCreated = z.infer<typeof EpisodeCreatedSchema>;

export const EpisodeStepRequestSchema = z.strictObject({
  /** The turn this message answers: the `step` of the last answer. */
  step: pyNumber(z.number().int().nonnegative()),
  message: z.strictObject({
    role: z.literal('assistant'),
    content: textOfBytes(MAX_EPISODE_TEXT).nullable().optional(),
    tool_calls: z
      .array(
        z.strictObject({
          id: boundedName,
          type: z.literal('function').optional(),
          function: z.strictObject({ name: boundedName, arguments: textOfBytes(MAX_EPISODE_TEXT) }),
        }),
      )
      .max(MAX_TOOL_CALLS)
      .nullable()
      .optional(),
  }),
});
export type EpisodeStepRequest = z.infer<typeof EpisodeStepRequestSchema>;

export const EpisodeStepSchema = z.object({
  step: z.number().int(),
  done: z.boolean(),
  termination_reason: TerminationReasonSchema.nullable(),
  observation: EpisodeObservationSchema,
  /** Present once the episode is done and graded: the reference's RewardInfo. */
  reward_info: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type EpisodeStep = z.infer<typeof EpisodeStepSchema>;

export const EpisodeSchema = z.object({
  episode_id: z.string(),
  run_id: z.string(),
  task_id: z.string(),
  trial: z.number().int(),
  /** running: waits for the agent or the user; evaluating; done: graded (its simulation is in the run's results). */
  status: z.enum(['running', 'evaluating', 'done', 'cancelled']),
  step: z.number().int(),
  /** Whether the episode waits for the caller's next step now. */
  waiting: z.boolean(),
  done: z.boolean(),
  termination_reason: TerminationReasonSchema.nullable(),
  messages: z.array(WireMessageSchema),
  /** What the caller's participant is given while the episode runs (as POST /v1/episodes answers); null after. */
  policy: z.string().nullable(),
  instructions: z.string().nullable(),
  tools: z.array(ToolSchemaSchema).nullable(),
  reward_info: z.record(z.string(), z.unknown()).nullable(),
  simulation_id: z.string().nullable(),
});
export type Episode = z.infer<typeof EpisodeSchema>;

export const RunEpisodeStatusSchema = z.enum(['pending', 'running', 'done', 'cancelled']);

export const RunEpisodesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** The `next` of the previous page. */
  after: z.coerce.number().int().min(-1).default(-1),
  status: RunEpisodeStatusSchema.optional(),
});

export type RunEpisodesQuery = z.infer<typeof RunEpisodesQuerySchema>;

export const RunEpisodesSchema = z.object({
  episodes: z.array(
    z.object({
      /** For /v1/episodes/:id (an `external` run's episodes are stepped there). */
      episode_id: z.string(),
      task_id: z.string(),
      trial: z.number().int(),
      /** pending: not started yet (the run's max_concurrency); running; done: graded; cancelled. */
      status: RunEpisodeStatusSchema,
    }),
  ),
  /** Pass as `after` for the next page; null on the last page. */
  next: z.number().int().nullable(),
});
export type RunEpisodes = z.infer<typeof RunEpisodesSchema>;

export const ApiErrorCodeSchema = z.enum([
  'invalid_request',
  'unauthorized',
  'csrf_failed',
  'not_found',
  'conflict',
  'idempotency_key_reused',
  'limit_exceeded',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'rate_limited',
  'quota_exceeded',
  'not_configured',
  'not_ready',
  'overloaded',
  'internal_error',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ApiIssue = z.infer<typeof ApiIssueSchema>;

/** `message` names the field and the reason, e.g. `num_trials: Too small: expected number to be >0`. */
export const ApiErrorSchema = z.object({
  error: z.object({ code: ApiErrorCodeSchema, message: z.string(), issues: z.array(ApiIssueSchema).optional() }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;
