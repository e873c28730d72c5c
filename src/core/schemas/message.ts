// Message data model (reference: src/tau2/data_model/message.py); keys in the reference's serialization order.
import { z } from 'zod';
import { PyDictSchema, PyFloatSchema, PyIntSchema, PyValueSchema, nullable } from './py-types.ts';

export const ToolCallSchema = z.object({
  id: z.string().default(''),
  name: z.string(),
  arguments: PyDictSchema,
  requestor: z.enum(['user', 'assistant']).default('assistant'),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const UsageSchema = z.record(z.string(), PyValueSchema);

/**
 * The provider's reasoning state of a participant's turn (see ProviderState in core/llm/types.ts): a key the
 * reference does not have, present only when a provider returned one; the reference's models ignore it on load.
 */
export const ProviderStateSchema = z.object({
  provider: z.string(),
  model: z.string(),
  content: z.array(PyValueSchema),
  reasoning: nullable(z.string()),
  omitted_args: z.array(z.string()).optional(),
});

const participantFields = {
  content: nullable(z.string()),
  tool_calls: nullable(z.array(ToolCallSchema)),
  is_audio: z.boolean().default(false),
  turn_idx: nullable(PyIntSchema),
  timestamp: nullable(z.string()),
  cost: nullable(PyFloatSchema),
  usage: nullable(UsageSchema),
  raw_data: nullable(PyDictSchema),
  generation_time_seconds: nullable(PyFloatSchema),
  audio_format: nullable(PyValueSchema),
  audio_path: nullable(z.string()),
  audio_script_gold: nullable(z.string()),
  speech_effects: nullable(PyValueSchema),
  source_effects: nullable(PyValueSchema),
  channel_effects: nullable(PyValueSchema),
  turn_taking_action: nullable(PyValueSchema),
  utterance_ids: nullable(z.array(z.string())),
  chunk_id: nullable(PyIntSchema),
  is_final_chunk: z.boolean().default(true),
  source: nullable(z.string()),
  contains_speech: z.boolean().default(true),
  provider_state: ProviderStateSchema.optional(),
};

export const AssistantMessageSchema = z.object({ role: z.literal('assistant'), ...participantFields });
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const UserMessageSchema = z.object({ role: z.literal('user'), ...participantFields });
export type UserMessage = z.infer<typeof UserMessageSchema>;

export const ToolMessageSchema = z.object({
  id: z.string(),
  role: z.literal('tool'),
  content: nullable(z.string()),
  requestor: z.enum(['user', 'assistant']).default('assistant'),
  error: z.boolean().default(false),
  turn_idx: nullable(PyIntSchema),
  timestamp: nullable(z.string()),
});
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

export const SystemMessageSchema = z.object({
  role: z.literal('system'),
  content: nullable(z.string()),
  turn_idx: nullable(PyIntSchema),
  timestamp: nullable(z.string()),
});
export type SystemMessage = z.infer<typeof SystemMessageSchema>;

export const MessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  AssistantMessageSchema,
  UserMessageSchema,
  ToolMessageSchema,
]);
export type Message = z.infer<typeof MessageSchema>;
export type ParticipantMessage = AssistantMessage | UserMessage;
export type MessageInput = z.input<typeof MessageSchema>;

/** The fields a participant message is built from; every other field takes the reference's default. */
export type ParticipantFields = Pick<AssistantMessage, 'content' | 'tool_calls' | 'timestamp' | 'cost'> &
  Partial<Pick<AssistantMessage, 'usage' | 'raw_data' | 'generation_time_seconds' | 'provider_state'>>;

/** A complete assistant or user message, as the reference's constructors fill it. */
export const participantMessage = <R extends 'assistant' | 'user'>(
  role: R,
  fields: ParticipantFields,
): R extends 'assistant' ? AssistantMessage : UserMessage =>
  ({
    role,
    content: fields.content,
    tool_calls: fields.tool_calls,
    is_audio: false,
    turn_idx: null,
    timestamp: fields.timestamp,
    cost: fields.cost,
    usage: fields.usage ?? null,
    raw_data: fields.raw_data ?? null,
    generation_time_seconds: fields.generation_time_seconds ?? null,
    audio_format: null,
    audio_path: null,
    audio_script_gold: null,
    speech_effects: null,
    source_effects: null,
    channel_effects: null,
    turn_taking_action: null,
    utterance_ids: null,
    chunk_id: null,
    is_final_chunk: true,
    source: null,
    contains_speech: true,
    ...(fields.provider_state ? { provider_state: fields.provider_state } : {}),
  }) as R extends 'assistant' ? AssistantMessage : UserMessage;
