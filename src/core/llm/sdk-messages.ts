// The AI SDK's view of a conversation in the reference's message format, for the adapters built on `generateText`:
// model messages (each participant's own provider state replayed as its provider returned it) and tools
// without `execute`, which the engine runs itself.
import { jsonSchema, tool } from 'ai';
import type { AssistantContent, JSONSchema7, ModelMessage, ToolSet } from 'ai';
import type { ToolSchema } from './tool-schema.ts';
import { toJson } from './json-value.ts';
import type { ChatMessage, LlmRequest, ProviderState } from './types.ts';

/**
 * The same conversation as AI SDK model messages, so the SDK's own view of the call is the real one. An
 * assistant turn whose provider state `replays` accepts goes back as the content its provider returned.
 */
const toModelMessages = (messages: readonly ChatMessage[], replays: (state: ProviderState) => boolean): ModelMessage[] => {
  const toolNames = new Map<string, string>();
  return messages.map((m): ModelMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content ?? '' };
      case 'assistant': {
        const calls = m.tool_calls ?? [];
        for (const c of calls) toolNames.set(c.id, c.name);
        if (m.provider_state !== undefined && replays(m.provider_state)) {
          return { role: 'assistant', content: toJson(m.provider_state.content) as unknown as Exclude<AssistantContent, string> };
        }
        if (calls.length === 0) return { role: 'assistant', content: m.content ?? '' };
        return {
          role: 'assistant',
          content: [
            ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
            ...calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: toJson(c.arguments) })),
          ],
        };
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: m.tool_call_id,
              toolName: toolNames.get(m.tool_call_id) ?? '',
              output: { type: 'text', value: m.content ?? '' },
            },
          ],
        };
    }
  });
};

/** The tools as SDK tools without `execute`: the engine runs them, the SDK only reports the calls. */
const toSdkTools = (schemas: readonly ToolSchema[]): ToolSet =>
  Object.fromEntries(
    schemas.map((s) => [s.function.name, tool({ description: s.function.description, inputSchema: jsonSchema(toJson(s.function.parameters) as JSONSchema7) })]),
  );

/**
 * The SDK's view of a request's conversation and tools, replaying the provider state that `adapter` issued for
 * the requested model; state from another provider or model is left out, as the AI SDK leaves it out.
 */
export const sdkCall = (request: LlmRequest, adapter: string) => {
  const tools = request.tools !== null && request.tools.length > 0 ? toSdkTools(request.tools) : undefined;
  return {
    messages: toModelMessages(request.messages, (state) => state.provider === adapter && state.model === request.model),
    allowSystemInMessages: true as const,
    ...(tools === undefined ? {} : { tools, toolChoice: request.toolChoice ?? ('auto' as const) }),
  };
};
