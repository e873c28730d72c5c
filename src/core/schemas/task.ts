// Task data model (reference: src/tau2/data_model/tasks.py). JSON keys and key order follow the reference.
import { z } from 'zod';
import { PyDictSchema, nullable } from './py-types.ts';
import { MessageSchema } from './message.ts';

export const RewardTypeSchema = z.enum(['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE']);
export type RewardType = z.infer<typeof RewardTypeSchema>;

export const RequestorSchema = z.enum(['user', 'assistant']);
export type Requestor = z.infer<typeof RequestorSchema>;

export const DescriptionSchema = z.object({
  purpose: nullable(z.string()),
  relevant_policies: nullable(z.string()),
  notes: nullable(z.string()),
});

export const StructuredUserInstructionsSchema = z.object({
  domain: z.string(),
  reason_for_call: z.string(),
  known_info: nullable(z.string()),
  unknown_info: nullable(z.string()),
  task_instructions: z.string(),
});
export type StructuredUserInstructions = z.infer<typeof StructuredUserInstructionsSchema>;

export const UserScenarioSchema = z.object({
  persona: nullable(z.string()),
  instructions: z.union([StructuredUserInstructionsSchema, z.string()]),
});
export type UserScenario = z.infer<typeof UserScenarioSchema>;

export const EnvFunctionCallSchema = z.object({
  env_type: RequestorSchema,
  func_name: z.string(),
  arguments: PyDictSchema,
});
export type EnvFunctionCall = z.infer<typeof EnvFunctionCallSchema>;

export const EnvAssertionSchema = z.object({
  env_type: RequestorSchema,
  func_name: z.string(),
  arguments: PyDictSchema,
  assert_value: z.boolean().default(true),
  message: nullable(z.string()),
});
export type EnvAssertion = z.infer<typeof EnvAssertionSchema>;

export const ActionSchema = z.object({
  action_id: z.string(),
  requestor: RequestorSchema.default('assistant'),
  name: z.string(),
  arguments: PyDictSchema,
  info: nullable(z.string()),
  compare_args: nullable(z.array(z.string())),
});
export type Action = z.infer<typeof ActionSchema>;

export const InitializationDataSchema = z.object({
  agent_data: nullable(PyDictSchema),
  user_data: nullable(PyDictSchema),
});
export type InitializationData = z.infer<typeof InitializationDataSchema>;

export const InitialStateSchema = z.object({
  initialization_data: nullable(InitializationDataSchema),
  initialization_actions: nullable(z.array(EnvFunctionCallSchema)),
  message_history: nullable(z.array(MessageSchema)),
});
export type InitialState = z.infer<typeof InitialStateSchema>;

export const EvaluationCriteriaSchema = z.object({
  actions: nullable(z.array(ActionSchema)),
  env_assertions: nullable(z.array(EnvAssertionSchema)),
  communicate_info: nullable(z.array(z.string())),
  nl_assertions: nullable(z.array(z.string())),
  reward_basis: z.array(RewardTypeSchema).default(['DB', 'COMMUNICATE']),
});
export type EvaluationCriteria = z.infer<typeof EvaluationCriteriaSchema>;

export const TaskIssueSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: nullable(z.string()),
  status: z.enum(['open', 'resolved', 'wont_fix']).default('open'),
  resolution: nullable(z.string()),
  created_at: nullable(z.string()),
  resolved_at: nullable(z.string()),
  author_email: nullable(z.string()),
  pr_link: nullable(z.string()),
  simulation_file: nullable(z.string()),
});

export const TaskSchema = z.object({
  id: z.string(),
  description: nullable(DescriptionSchema),
  user_scenario: UserScenarioSchema,
  ticket: nullable(z.string()),
  initial_state: nullable(InitialStateSchema),
  evaluation_criteria: nullable(EvaluationCriteriaSchema),
  issues: nullable(z.array(TaskIssueSchema)),
  required_documents: nullable(z.array(z.string())),
  user_tools: nullable(z.array(z.string())),
});
export type Task = z.infer<typeof TaskSchema>;

export const TaskListSchema = z.array(TaskSchema);

/** `split_tasks.json`: split name → task ids. */
export const TaskSplitsSchema = z.record(z.string(), z.array(z.string()));
export type TaskSplits = z.infer<typeof TaskSplitsSchema>;
