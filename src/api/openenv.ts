// OpenEnv's wire protocol (meta-pytorch/OpenEnv, src/openenv/core/env_server/types.py) for tau2-edge episodes:
// the WebSocket messages each way, the error codes, and the action, observation and state a tau2-edge
// episode puts in them. GET /openenv/schema serves the JSON schemas of these.
import { z } from 'zod';
import { EpisodeBatchForkSchema, EpisodeCreateSchema, EpisodeStepRequestSchema, MAX_EPISODE_TEXT } from './episodes.ts';
import { pyNumber } from '../core/schemas/py-types.ts';
import { plainText } from '../core/schemas/run-config.ts';
import { textOfBytes } from '../core/schemas/text-bytes.ts';
import { TerminationReasonSchema } from '../core/schemas/simulation.ts';
import type { PyFloat } from '../core/py/index.ts';
import type { JsonRpcResponse } from '../core/mcp/json-rpc.ts';

/** OpenEnv's WSErrorCode values. */
export const OPENENV_ERROR_CODES = ['INVALID_JSON', 'UNKNOWN_TYPE', 'VALIDATION_ERROR', 'EXECUTION_ERROR', 'CAPACITY_REACHED', 'FACTORY_ERROR', 'SESSION_ERROR'] as const;
export type OpenEnvErrorCode = (typeof OPENENV_ERROR_CODES)[number];

/**
 * Reset data is the POST /v1/episodes body (with OpenEnv's `seed`), which starts a new episode; or OpenEnv's
 * `episode_id` alone: the id of an episode created before (a batch's, or one whose socket was lost), to join.
 */
const episodeIdField = z.string().min(1).max(255);
export const OpenEnvJoinSchema = z.strictObject({ episode_id: episodeIdField });

/** Or `fork_of`: a new episode in the state the caller's episode had at a step (see EpisodeForkSchema), one fork. */
export const OpenEnvForkResetSchema = EpisodeBatchForkSchema.omit({ n: true });


/** What POST /openenv/reset reads: a new episode's body, or an episode to join (told apart by `episode_id`). */
export const OpenEnvResetRequestSchema = z.union([EpisodeCreateSchema, OpenEnvJoinSchema]);

/** OpenEnv's GET /health, /metadata and /schema answers. */
export const OpenEnvHealthSchema = z.object({ status: z.literal('healthy') });
export const OpenEnvMetadataSchema = z.object({
  name: z.string(),
  description: z.string(),
  readme_content: z.string().nullable(),
  version: z.string().nullable(),
  author: z.string().nullable(),
  documentation_url: z.string().nullable(),
});
const JsonSchemaSchema = z.record(z.string(), z.unknown());
export const OpenEnvSchemasSchema = z.object({ action: JsonSchemaSchema, observation: JsonSchemaSchema, state: JsonSchemaSchema });

/** The turn a step answers: by default the one the session's episode waits for; given, a retry is applied once. */
const stepField = EpisodeStepRequestSchema.shape.step.optional();

/**
 * OpenEnv's MCPToolClient actions (mcp_types.py), told apart by `type`: list the caller's tools (the episode
 * does not advance), or play one call of a tool as the caller's message.
 */
export const OpenEnvToolActionSchemas = {
  list_tools: z.strictObject({ type: z.literal('list_tools') }),
  call_tool: z.strictObject({
    type: z.literal('call_tool'),
    tool_name: plainText().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
    step: stepField,
  }),
};

/**
 * An action: the agent's message in chat-completions format, as the step API takes it; or an action string in
 * the reference gym's format (a JSON tool call, a functional call `f(a=1)`, or plain text); or one of OpenEnv's MCPToolClient actions.
 */
export const OpenEnvActionSchema = z.union([
  z.strictObject({ message: EpisodeStepRequestSchema.shape.message, step: stepField }),
  z.strictObject({ action: textOfBytes(MAX_EPISODE_TEXT), step: stepField }),
  OpenEnvToolActionSchemas.list_tools,
  OpenEnvToolActionSchemas.call_tool,
]);
export type OpenEnvAction = z.infer<typeof OpenEnvActionSchema>;

const WireMessageSchema = z.record(z.string(), z.unknown());

export const OpenEnvObservationSchema = z.object({
  episode_id: z.string(),
  /** The turn the next step answers. */
  step: z.number().int(),
  /** The new messages: all of them on reset, after a step the tool results and the other side's reply. */
  messages: z.array(WireMessageSchema),
  /** On reset: the policy (agent) or the instructions (user), and the caller's tools. */
  policy: z.string().optional(),
  instructions: z.string().optional(),
  tools: z.array(WireMessageSchema).optional(),
  /** After a call_tool action: the tool called, its result (the tool message's text) and OpenEnv's ToolError, always null here: a tool's own failure is its result, and a call the episode refuses answers an error message. */
  tool_name: z.string().optional(),
  result: z.string().nullable().optional(),
  error: z.object({ error_type: z.string(), message: z.string() }).nullable().optional(),
  termination_reason: TerminationReasonSchema.nullable(),
  /** Once done and graded: the reference's RewardInfo. */
  reward_info: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type OpenEnvObservation = z.infer<typeof OpenEnvObservationSchema>;

/** OpenEnv's State: `episode_id` and `step_count`, with the episode's run, task and trial. */
export const OpenEnvStateSchema = z.object({
  episode_id: z.string().nullable(),
  step_count: z.number().int().nonnegative(),
  run_id: z.string().nullable(),
  task_id: z.string().nullable(),
  trial: z.number().int().nullable(),
  done: z.boolean(),
});
export type OpenEnvState = z.infer<typeof OpenEnvStateSchema>;

/** What a reset or a step answers: OpenEnv's serialized observation. */
export const OpenEnvResultSchema = z.object({ observation: OpenEnvObservationSchema, reward: z.number().nullable(), done: z.boolean() });
export type OpenEnvResult = z.infer<typeof OpenEnvResultSchema>;

/** Client messages; like OpenEnv's, they take no other fields. */
export const OpenEnvClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('reset'), data: z.record(z.string(), z.unknown()).default({}) }),
  z.strictObject({ type: z.literal('step'), data: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('state') }),
  z.strictObject({ type: z.literal('close') }),
  /** OpenEnv's WSMCPMessage: a JSON-RPC 2.0 request (read by JsonRpcRequestSchema, whose failures are JSON-RPC errors). */
  z.strictObject({ type: z.literal('mcp'), data: z.record(z.string(), z.unknown()) }),
]);
export type OpenEnvClientMessage = z.infer<typeof OpenEnvClientMessageSchema>;

export const OpenEnvErrorDataSchema = z.object({
  message: z.string(),
  code: z.enum(OPENENV_ERROR_CODES),
  /** The invalid fields (VALIDATION_ERROR), as `path: message`. */
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** The HTTP status and error code the step API answers the same failure with. */
  status: z.number().int().optional(),
  reason: z.string().optional(),
});
export type OpenEnvErrorData = z.infer<typeof OpenEnvErrorDataSchema>;

/** A result as sent: a graded reward stays a Python float (`1.0`). */
export type OpenEnvWireResult = Omit<OpenEnvResult, 'reward'> & { readonly reward: number | PyFloat | null };

export type OpenEnvServerMessage =
  | { readonly type: 'observation'; readonly data: OpenEnvWireResult }
  | { readonly type: 'state'; readonly data: OpenEnvState }
  | { readonly type: 'error'; readonly data: OpenEnvErrorData }
  | { readonly type: 'mcp'; readonly data: JsonRpcResponse };

/** Stateless POST /openenv/step: OpenEnv's StepRequest, naming the episode it steps. */
export const OpenEnvStepRequestSchema = z.strictObject({
  action: OpenEnvActionSchema,
  episode_id: episodeIdField,
});

/** OpenEnv's JsonRpcRequest (mcp_types.py): JSON-RPC 2.0, no other fields; an `id` as pydantic reads `str | int` (`true` and `1.0` are 1). */
export const JsonRpcRequestSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).default({}),
  id: z.union([z.string(), pyNumber(z.int()), z.boolean().transform(Number)]).nullable().default(null),
});

/** OpenEnv's JsonRpcErrorCode (but PARSE_ERROR: a message that is not JSON is an INVALID_JSON error message, as OpenEnv's). */
export { JSON_RPC_ERRORS } from '../core/mcp/json-rpc.ts';
export type { JsonRpcResponse };
