// The serializable state of one episode (task × trial): everything needed to resume it after any step.
import { z } from 'zod';
import { PyIntSchema, PyValueSchema, nullable } from './py-types.ts';
import { TaskSchema } from './task.ts';
import { MessageSchema } from './message.ts';
import { TerminationReasonSchema } from './simulation.ts';
import type { EnvironmentChanges } from '../environment/environment.ts';

export const AgentKindSchema = z.enum(['llm_agent', 'llm_agent_gt', 'llm_agent_solo']);
export type AgentKind = z.infer<typeof AgentKindSchema>;

export const RoleSchema = z.enum(['agent', 'user', 'env']);
export type Role = z.infer<typeof RoleSchema>;

/** Per DB slot, the changes against the domain's shared base DB (see environment/db-state.ts). */
export const EnvironmentChangesSchema = z
  .object({
    slots: z.array(
      z.array(
        z.union([
          z.object({ path: z.array(z.string()), removed: z.literal(true) }),
          z.object({ path: z.array(z.string()), value: PyValueSchema }),
        ]),
      ),
    ),
    agentSlot: z.number().int(),
    userSlot: z.number().int().nullable(),
  })
  .transform((changes): EnvironmentChanges => changes);

export const EpisodeStateSchema = z.object({
  simulation_id: z.string(),
  domain: z.string(),
  task: TaskSchema,
  agent: AgentKindSchema,
  trial: PyIntSchema,
  seed: nullable(PyIntSchema),
  max_steps: PyIntSchema,
  max_errors: PyIntSchema,
  timeout_seconds: z.number().nullable(),
  /** Opt-in protocol check: a message with both text and tool calls ends the episode as an error. */
  enforce_communication_protocol: z.boolean().default(false),
  trajectory: z.array(MessageSchema),
  from_role: RoleSchema,
  to_role: RoleSchema,
  done: z.boolean(),
  termination_reason: nullable(TerminationReasonSchema),
  step_count: PyIntSchema,
  num_errors: PyIntSchema,
  environment: EnvironmentChangesSchema,
  start_time: z.string(),
  started_at_ms: z.number(),
});
export type EpisodeState = z.infer<typeof EpisodeStateSchema>;
