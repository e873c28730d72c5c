// Agent-driven episodes: the caller plays a participant over HTTP (the reference's AgentGymEnv), step by step.
import { z } from 'zod';
import { ForkOriginSchema, RunConfigSchema, plainText } from '../core/schemas/run-config.ts';
import { TerminationReasonSchema } from '../core/schemas/simulation.ts';
import { AgentKindSchema } from '../core/schemas/episode.ts';
import { LlmArgsSchema } from '../core/schemas/llm-args.ts';
import { pyNumber } from '../core/schemas/py-types.ts';
import { textOfBytes } from '../core/schemas/text-bytes.ts';


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

/** Continuations opened by one fork request. */
export const MAX_FORKS = 64;

/**
 * Forks of an episode or a simulation: `n` new episodes, each in the state the source had at step `at_step`
 * (the participant turns it had applied, agent's and user's, counted from 0 after the opening), each continuing
 * under the source's configuration with these changes. A fork's trials draw their seeds from `seed` (default
 * the source run's), so continuations differ where the models sample.
 */
export const EpisodeForkSchema = z.strictObject({
  at_step: ForkOriginSchema.options[0].shape.at_step,
  n: pyNumber(z.number().int().min(1).max(MAX_FORKS)).default(1),
  agent: AgentKindSchema.optional(),
  llm_agent: boundedName.optional(),
  llm_args_agent: LlmArgsSchema.optional(),
  llm_user: boundedName.optional(),
  llm_args_user: LlmArgsSchema.optional(),
  seed: pyNumber(z.number().int()).optional(),
});
export type EpisodeFork = z.infer<typeof EpisodeForkSchema>;
export type EpisodeForkInput = z.input<typeof EpisodeForkSchema>;

/** A fork group as a batch of episodes (POST /v1/episodes/batch): the episode and step to fork, in `fork_of`. */
export const EpisodeBatchForkSchema = EpisodeForkSchema.omit({ at_step: true }).extend({ fork_of: ForkOriginSchema.options[0] });
export type EpisodeBatchFork = z.infer<typeof EpisodeBatchForkSchema>;

/** The forks opened: one run of `n` trials of the source's task, stepped (or read) by their episode ids. */
export const EpisodeForkCreatedSchema = EpisodeBatchCreatedSchema.extend({ forked_from: ForkOriginSchema });
export type EpisodeForkCreated = z.infer<typeof EpisodeForkCreatedSchema>;

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
