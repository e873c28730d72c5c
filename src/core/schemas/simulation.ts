// Simulation records and results files (reference: src/tau2/data_model/simulation.py).
import { z } from 'zod';
import { RunErrorBarsSchema } from './statistics.ts';
import { PyDictSchema, PyFloatSchema, PyIntSchema, PyValueSchema, nullable } from './py-types.ts';
import { ActionSchema, EnvAssertionSchema, RewardTypeSchema, TaskSchema } from './task.ts';
import { MessageSchema } from './message.ts';

export const TerminationReasonSchema = z.enum([
  'user_stop',
  'agent_stop',
  'max_steps',
  'timeout',
  'too_many_errors',
  'agent_error',
  'user_error',
  'infrastructure_error',
  'context_window_exceeded',
  'unexpected_error',
]);
export type TerminationReason = z.infer<typeof TerminationReasonSchema>;

export const ToolTypeSchema = z.enum(['read', 'write', 'think', 'generic']);
export type ToolType = z.infer<typeof ToolTypeSchema>;

export const DBCheckSchema = z.object({ db_match: z.boolean(), db_reward: PyFloatSchema });
export const EnvAssertionCheckSchema = z.object({
  env_assertion: EnvAssertionSchema,
  met: z.boolean(),
  reward: PyFloatSchema,
});
export const ActionCheckSchema = z.object({
  action: ActionSchema,
  action_match: z.boolean(),
  action_reward: PyFloatSchema,
  tool_type: nullable(ToolTypeSchema),
});
export const NLAssertionCheckSchema = z.object({
  nl_assertion: z.string(),
  met: z.boolean(),
  justification: z.string(),
});
export const CommunicateCheckSchema = z.object({
  info: z.string(),
  met: z.boolean(),
  justification: z.string(),
});

export const RewardInfoSchema = z.object({
  reward: PyFloatSchema,
  db_check: nullable(DBCheckSchema),
  env_assertions: nullable(z.array(EnvAssertionCheckSchema)),
  action_checks: nullable(z.array(ActionCheckSchema)),
  nl_assertions: nullable(z.array(NLAssertionCheckSchema)),
  communicate_checks: nullable(z.array(CommunicateCheckSchema)),
  reward_basis: z.array(RewardTypeSchema).nullable().default(['DB']),
  reward_breakdown: nullable(z.partialRecord(RewardTypeSchema, PyFloatSchema)),
  info: nullable(PyDictSchema),
});
export type RewardInfo = z.infer<typeof RewardInfoSchema>;
export type DBCheck = z.infer<typeof DBCheckSchema>;
export type EnvAssertionCheck = z.infer<typeof EnvAssertionCheckSchema>;
export type ActionCheck = z.infer<typeof ActionCheckSchema>;
export type NLAssertionCheck = z.infer<typeof NLAssertionCheckSchema>;
export type CommunicateCheck = z.infer<typeof CommunicateCheckSchema>;

export const SimulationRunSchema = z.object({
  id: z.string(),
  task_id: z.string(),
  timestamp: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  duration: PyFloatSchema,
  termination_reason: TerminationReasonSchema,
  agent_cost: nullable(PyFloatSchema),
  user_cost: nullable(PyFloatSchema),
  agent_usage: nullable(PyValueSchema),
  reward_info: nullable(RewardInfoSchema),
  messages: nullable(z.array(MessageSchema)),
  ticks: nullable(PyValueSchema),
  trial: nullable(PyIntSchema),
  seed: nullable(PyIntSchema),
  mode: z.string().default('half_duplex'),
  speech_environment: nullable(PyValueSchema),
  review: nullable(PyValueSchema),
  user_only_review: nullable(PyValueSchema),
  info: nullable(PyDictSchema),
  auth_classification: nullable(PyValueSchema),
  hallucination_retries_used: PyIntSchema.default(0),
  hallucination_check: nullable(PyValueSchema),
  provider_session_id: nullable(z.string()),
  policy: nullable(z.string()),
  effect_timeline: nullable(PyValueSchema),
});
export type SimulationRun = z.infer<typeof SimulationRunSchema>;

export const AgentInfoSchema = z.object({
  implementation: z.string(),
  llm: nullable(z.string()),
  llm_args: nullable(PyDictSchema),
  voice_settings: nullable(PyValueSchema),
});
export const UserInfoSchema = z.object({
  implementation: z.string(),
  llm: nullable(z.string()),
  llm_args: nullable(PyDictSchema),
  global_simulation_guidelines: nullable(z.string()),
  voice_settings: nullable(PyValueSchema),
  persona_config: nullable(PyValueSchema),
});
export const EnvironmentInfoSchema = z.object({
  domain_name: z.string(),
  policy: z.string(),
  tool_defs: nullable(PyValueSchema),
});

export const InfoSchema = z.object({
  git_commit: z.string(),
  num_trials: PyIntSchema,
  max_steps: PyIntSchema,
  max_errors: PyIntSchema,
  user_info: UserInfoSchema,
  agent_info: AgentInfoSchema,
  environment_info: EnvironmentInfoSchema,
  seed: nullable(PyIntSchema),
  text_streaming_config: PyDictSchema.nullable().default({ chunk_by: 'words', chunk_size: 1 }),
  speech_complexity: nullable(PyValueSchema),
  audio_native_config: nullable(PyValueSchema),
  retrieval_config: nullable(z.string()),
  retrieval_config_kwargs: nullable(PyDictSchema),
});
export type Info = z.infer<typeof InfoSchema>;

export const SimulationIndexEntrySchema = z.object({
  id: z.string(),
  task_id: z.string(),
  trial: PyIntSchema,
  reward: nullable(PyFloatSchema),
  termination_reason: nullable(z.string()),
  agent_cost: nullable(PyFloatSchema),
  duration: nullable(PyFloatSchema),
});

export const ResultsSchema = z.object({
  timestamp: nullable(z.string()),
  info: InfoSchema,
  tasks: z.array(TaskSchema),
  simulations: z.array(SimulationRunSchema),
  simulation_index: nullable(z.array(SimulationIndexEntrySchema)),
  /**
   * tau2-edge's error bars of the run's metrics, written by `run`; absent from reference files. The reference's
   * loader ignores it (Results is a pydantic model with the default extra="ignore").
   */
  error_bars: RunErrorBarsSchema.optional(),
});
export type Results = z.infer<typeof ResultsSchema>;
