// The serializable state of one episode (task × trial): everything needed to resume it after any step.
import { z } from 'zod';
import { PyDictSchema, PyIntSchema, PyValueSchema, nullable } from './py-types.ts';
import { TaskSchema } from './task.ts';
import { MessageSchema } from './message.ts';
import { TerminationReasonSchema } from './simulation.ts';
import { RoleUsageSchema } from './usage.ts';
import type { EnvironmentChanges } from '../environment/environment.ts';

/**
 * The agents: the reference's three LLM agents, and `external` / `external_solo`, an agent whose turns come
 * from outside (a client stepping the episode, the reference's GymAgent) with or without a user; `a2a`, an agent
 * reached over A2A at the run's agent endpoint, whose turns the service takes from it (its tools over the
 * episode's MCP endpoint).
 */
export const AgentKindSchema = z.enum(['llm_agent', 'llm_agent_gt', 'llm_agent_solo', 'external', 'external_solo', 'a2a']);
export type AgentKind = z.infer<typeof AgentKindSchema>;

/** Agents that work without a user (solo mode: the user's tools are theirs, `dummy_user` plays the user). */
export const isSoloAgent = (kind: AgentKind): boolean => kind === 'llm_agent_solo' || kind === 'external_solo';

/** Agents whose turns no model of the run produces: a client submits them. */
export const isExternalAgent = (kind: AgentKind): boolean => kind === 'external' || kind === 'external_solo' || kind === 'a2a';

/**
 * The users: the reference's simulator and dummy user (solo mode), and `external_user`, a user whose turns come
 * from outside (a client stepping the episode, the reference's GymUser).
 */
export const UserKindSchema = z.enum(['user_simulator', 'dummy_user', 'external_user']);
export type UserKind = z.infer<typeof UserKindSchema>;

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
  /** The run's retrieval configuration, for a domain whose toolkit and policy depend on it (else null). */
  retrieval_config: nullable(z.string()),
  retrieval_config_kwargs: nullable(PyDictSchema),
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
  /** The calls the episode's tools made so far (embeddings, the reranker); absent while there are none. */
  retrieval_usage: RoleUsageSchema.optional(),
});
export type EpisodeState = z.infer<typeof EpisodeStateSchema>;
