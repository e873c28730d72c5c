// Turning a model response into a trajectory message (reference: llm_utils.generate).
import { isPlainDict, isPyMap, parsePyJson } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { participantMessage } from '../schemas/message.ts';
import type { AssistantMessage, ToolCall, UserMessage } from '../schemas/message.ts';
import type { LlmResponse, LlmToolCall } from './types.ts';
import { pyFloat } from '../py/index.ts';
import { UNPARSED_ARGUMENTS_KEY } from './tool-schema.ts';


/** Parses tool-call arguments keeping int/float kinds; empty text means no arguments. */
export const parseToolArguments = (text: string): Record<string, PyValue> => {
  if (text.trim() === '') return {};
  try {
    const value = parsePyJson(text);
    if (isPlainDict(value)) return value as Record<string, PyValue>;
    // Keys like "0" are never parameter names: the call fails at binding either way, so the keyword
    // arguments need not keep the order in which the model wrote such keys.
    if (isPyMap(value)) return Object.fromEntries(value) as Record<string, PyValue>;
  } catch {
    // fall through: kept verbatim for the error tool message
  }
  return { [UNPARSED_ARGUMENTS_KEY]: text };
};

const toToolCall = (call: LlmToolCall, requestor: 'user' | 'assistant'): ToolCall => ({
  id: call.id,
  name: call.name,
  arguments: parseToolArguments(call.arguments),
  requestor,
});

/** An assistant or user message carrying the response's text, tool calls, cost and usage. */
export const messageFromResponse = <R extends 'assistant' | 'user'>(
  role: R,
  response: LlmResponse,
  timestamp: string,
): R extends 'assistant' ? AssistantMessage : UserMessage => {
  const requestor = role === 'user' ? 'user' : 'assistant';
  const toolCalls = response.toolCalls.length > 0 ? response.toolCalls.map((c) => toToolCall(c, requestor)) : null;
  return participantMessage(role, {
    content: response.content,
    tool_calls: toolCalls,
    timestamp,
    cost: pyFloat(response.cost),
    usage: response.usage ? { ...response.usage } : null,
    raw_data: (response.rawData as Record<string, PyValue> | null) ?? null,
    generation_time_seconds: response.generationTimeSeconds === null ? null : pyFloat(response.generationTimeSeconds),
    ...(response.providerState ? { provider_state: response.providerState as AssistantMessage['provider_state'] } : {}),
  });
};

/** `has_content() or is_tool_call()`, else the reference raises and the attempt is retried. */
export const validateParticipantMessage = (message: AssistantMessage | UserMessage): void => {
  const hasContent = message.content !== null && message.content.trim() !== '';
  if (!hasContent && message.tool_calls === null) {
    const name = message.role === 'assistant' ? 'AssistantMessage' : 'UserMessage';
    throw new Error(`${name} must have either content or tool_calls. Got ${JSON.stringify(message.content)}`);
  }
};

/** A participant's message from a model response, validated as the reference does. */
export const participantMessageFrom = <R extends 'assistant' | 'user'>(
  role: R,
  response: LlmResponse,
  timestamp: string,
): R extends 'assistant' ? AssistantMessage : UserMessage => {
  const message = messageFromResponse(role, response, timestamp);
  validateParticipantMessage(message);
  return message;
};
