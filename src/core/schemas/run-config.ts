// The configuration of a run (reference: TextRunConfig and the `tau2 run` defaults in config.py).
import { z } from 'zod';
import { PyDictSchema } from './py-types.ts';
import { AgentKindSchema } from './episode.ts';
import { pyFloat } from '../py/index.ts';

export const DEFAULT_LLM = 'gpt-4.1-2025-04-14';
const defaultLlmArgs = () => ({ temperature: pyFloat(0) });

export const RunConfigSchema = z
  .object({
    domain: z.string().min(1),
    task_split_name: z.string().nullable().default('base'),
    task_ids: z.array(z.string()).nullable().default(null),
    num_tasks: z.number().int().positive().nullable().default(null),
    agent: AgentKindSchema.default('llm_agent'),
    llm_agent: z.string().min(1).default(DEFAULT_LLM),
    llm_args_agent: PyDictSchema.default(defaultLlmArgs),
    user: z.enum(['user_simulator', 'dummy_user']).default('user_simulator'),
    llm_user: z.string().min(1).default(DEFAULT_LLM),
    llm_args_user: PyDictSchema.default(defaultLlmArgs),
    llm_judge: z.string().min(1).default(DEFAULT_LLM),
    llm_args_judge: PyDictSchema.default(defaultLlmArgs),
    num_trials: z.number().int().positive().default(1),
    max_steps: z.number().int().positive().default(200),
    max_errors: z.number().int().positive().default(10),
    timeout: z.number().positive().nullable().default(null),
    enforce_communication_protocol: z.boolean().default(false),
    max_concurrency: z.number().int().positive().default(3),
    seed: z.number().int().default(300),
    max_retries: z.number().int().nonnegative().default(3),
    retry_delay: z.number().nonnegative().default(1),
  })
  .refine((c) => (c.agent === 'llm_agent_solo') === (c.user === 'dummy_user'), {
    message: 'llm_agent_solo runs with dummy_user, and dummy_user only in solo mode',
    path: ['user'],
  });
export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;
