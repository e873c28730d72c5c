// The configuration of a run (reference: TextRunConfig and the `tau2 run` defaults in config.py).
import { z } from 'zod';
import { PyDictSchema } from './py-types.ts';
import { AgentKindSchema, isSoloAgent } from './episode.ts';
import { isPyFloat, pyFloat } from '../py/index.ts';

export const DEFAULT_LLM = 'gpt-4.1-2025-04-14';

/** Longest model, domain or task-id text accepted: names, never documents. */
export const MAX_NAME_LENGTH = 256;
const name = () => z.string().min(1).max(MAX_NAME_LENGTH);

/** Seconds, int or float as the reference takes them (a JSON `1.5` arrives as a PyFloat). */
const seconds = (schema: z.ZodNumber) => z.preprocess((v) => (isPyFloat(v) ? v.value : v), schema);
const defaultLlmArgs = () => ({ temperature: pyFloat(0) });

export const RunConfigSchema = z
  .object({
    domain: name(),
    task_split_name: name().nullable().default('base'),
    task_ids: z.array(z.string().max(MAX_NAME_LENGTH)).nullable().default(null),
    num_tasks: z.number().int().positive().nullable().default(null),
    agent: AgentKindSchema.default('llm_agent'),
    llm_agent: name().default(DEFAULT_LLM),
    llm_args_agent: PyDictSchema.default(defaultLlmArgs),
    user: z.enum(['user_simulator', 'dummy_user']).default('user_simulator'),
    llm_user: name().default(DEFAULT_LLM),
    llm_args_user: PyDictSchema.default(defaultLlmArgs),
    llm_judge: name().default(DEFAULT_LLM),
    llm_args_judge: PyDictSchema.default(defaultLlmArgs),
    num_trials: z.number().int().positive().default(1),
    max_steps: z.number().int().positive().default(200),
    max_errors: z.number().int().positive().default(10),
    timeout: seconds(z.number().positive()).nullable().default(null),
    enforce_communication_protocol: z.boolean().default(false),
    max_concurrency: z.number().int().positive().default(3),
    seed: z.number().int().default(300),
    max_retries: z.number().int().nonnegative().default(3),
    retry_delay: seconds(z.number().nonnegative()).default(1),
  })
  .refine((c) => isSoloAgent(c.agent) === (c.user === 'dummy_user'), {
    message: 'llm_agent_solo runs with dummy_user (as does external_solo), and dummy_user only in solo mode',
    path: ['user'],
  });
export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;
