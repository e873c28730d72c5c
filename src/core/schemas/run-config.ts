// The configuration of a run (reference: TextRunConfig and the `tau2 run` defaults in config.py).
import { z } from 'zod';
import { PyDictSchema, pyNumber } from './py-types.ts';
import { AgentKindSchema, UserKindSchema, isExternalAgent, isSoloAgent } from './episode.ts';
import { pyFloat } from '../py/index.ts';
import { LlmArgsSchema } from './llm-args.ts';

export const DEFAULT_LLM = 'gpt-4.1-2025-04-14';

/** Longest model, domain or task-id text accepted: names, never documents. */
export const MAX_NAME_LENGTH = 256;
/** C0 and C1 control characters and DEL (NUL, tab, line breaks …): never part of a name, an id or a key. */
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The text of a name, an id or a key: bounded, without control characters. */
export const plainText = (max = MAX_NAME_LENGTH) => z.string().max(max).regex(NO_CONTROL_CHARACTERS, 'No control characters (NUL, tab, line breaks …)');
const name = () => plainText().min(1);
const defaultLlmArgs = () => ({ temperature: pyFloat(0) });

/** Headers an agent endpoint may not be sent: the HTTP client's own. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'accept-encoding']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const MAX_ENDPOINT_HEADERS = 16;
export const MAX_HALLUCINATION_RETRIES = 100;
export const MAX_SKIPPED_EPISODES = 100_000;
export const MAX_RETRIEVAL_KWARGS = 16;

/**
 * A remote agent: each agent turn is POSTed to `url` as an OpenAI chat-completions request (the messages and
 * tools the built-in agent's model would get) and its assistant message taken back. `headers` (e.g. the
 * endpoint's key) are secrets: kept encrypted apart from the configuration, never shown.
 */
export const AgentEndpointSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, 'Not an HTTP header name').max(MAX_NAME_LENGTH).refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), 'Set by the client itself'),
      z.string().max(4096).regex(/^[^\r\n\0]*$/, 'No line breaks or NUL in a header value'),
    )
    .refine((h) => Object.keys(h).length <= MAX_ENDPOINT_HEADERS, `At most ${MAX_ENDPOINT_HEADERS} headers`)
    .optional(),
});
export type AgentEndpoint = z.infer<typeof AgentEndpointSchema>;

export const RunConfigSchema = z
  .object({
    domain: name(),
    /** The registry's task set to take tasks from (null: the domain's own). */
    task_set_name: name().nullable().default(null),
    task_split_name: name().nullable().default('base'),
    task_ids: z.array(plainText()).nullable().default(null),
    num_tasks: pyNumber(z.number().int().positive()).nullable().default(null),
    agent: AgentKindSchema.default('llm_agent'),
    llm_agent: name().default(DEFAULT_LLM),
    llm_args_agent: LlmArgsSchema.default(defaultLlmArgs),
    user: UserKindSchema.default('user_simulator'),
    llm_user: name().default(DEFAULT_LLM),
    llm_args_user: LlmArgsSchema.default(defaultLlmArgs),
    llm_judge: name().default(DEFAULT_LLM),
    llm_args_judge: LlmArgsSchema.default(defaultLlmArgs),
    num_trials: pyNumber(z.number().int().positive()).default(1),
    max_steps: pyNumber(z.number().int().positive()).default(200),
    max_errors: pyNumber(z.number().int().positive()).default(10),
    timeout: pyNumber(z.number().positive()).nullable().default(null),
    enforce_communication_protocol: z.boolean().default(false),
    max_concurrency: pyNumber(z.number().int().positive()).default(3),
    seed: pyNumber(z.number().int()).default(300),
    max_retries: pyNumber(z.number().int().nonnegative()).default(3),
    retry_delay: pyNumber(z.number().nonnegative()).default(1),
    /** Recorded as the reference records it; the reference uses it in full-duplex (voice) runs only. */
    hallucination_retries: pyNumber(z.number().int().nonnegative().max(MAX_HALLUCINATION_RETRIES)).default(3),
    agent_endpoint: AgentEndpointSchema.nullable().default(null),
    /** Episodes a resumed run already has (from its results file): the run leaves them out. */
    skip_episodes: z
      .array(z.strictObject({ task_id: plainText(), trial: pyNumber(z.number().int().nonnegative()) }))
      .max(MAX_SKIPPED_EPISODES)
      .default([]),
    /** The knowledge retrieval configuration (banking_knowledge; its default `alltools` applies when null). */
    retrieval_config: name().nullable().default(null),
    /** Overrides of the configuration's retrieval settings (`top_k`, `grep_top_k`, `case_sensitive`, `reranker_min_score`). */
    retrieval_config_kwargs: PyDictSchema.refine((d) => Object.keys(d).length <= MAX_RETRIEVAL_KWARGS, `At most ${MAX_RETRIEVAL_KWARGS} keys`)
      .nullable()
      .default(null),
  })
  .refine((c) => isSoloAgent(c.agent) === (c.user === 'dummy_user'), {
    message: 'llm_agent_solo runs with dummy_user (as does external_solo), and dummy_user only in solo mode',
    path: ['user'],
  })
  .refine((c) => c.user !== 'external_user' || !isExternalAgent(c.agent), {
    message: 'An external user plays against a built-in agent (llm_agent or llm_agent_gt)',
    path: ['user'],
  })
  .refine((c) => c.agent_endpoint === null || !isExternalAgent(c.agent), {
    message: 'An agent endpoint answers for an LLM agent (llm_agent, llm_agent_gt or llm_agent_solo), not an external one',
    path: ['agent_endpoint'],
  });
export type RunConfigInput = z.input<typeof RunConfigSchema>;

/** The most steps a fork may start at: beyond any episode's max_steps an operator allows. */
export const MAX_FORK_STEP = 100_000;
const atStep = pyNumber(z.number().int().nonnegative().max(MAX_FORK_STEP));

/**
 * Where a fork group's episodes start: the state an episode (by its public id) or a finished simulation had at
 * step `at_step` (see core/episode/fork.ts for what a step is).
 */
export const ForkOriginSchema = z.union([
  z.strictObject({ episode_id: plainText(4096).min(1), at_step: atStep }),
  z.strictObject({ simulation_id: plainText().min(1), at_step: atStep }),
]);
export type ForkOrigin = z.infer<typeof ForkOriginSchema>;

/**
 * A configuration as a run records it: a fork group's also says what its episodes fork. Only the fork endpoints
 * set `fork_of` (after checking the source is the caller's), so a run request does not take it.
 */
export const RecordedRunConfigSchema = RunConfigSchema.safeExtend({ fork_of: ForkOriginSchema.optional() });
export type RunConfig = z.infer<typeof RecordedRunConfigSchema>;
