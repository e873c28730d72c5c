// Pairs every tool call of a message history with the ToolMessage that answered it (reference:
// `get_actions_from_messages` in Environment.set_state).
import type { Message, ToolCall, ToolMessage } from '../schemas/message.ts';

export const replayPairs = (messages: readonly Message[]): [ToolCall, ToolMessage][] => {
  const pairs: [ToolCall, ToolMessage][] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i++]!;
    if (message.role === 'tool') {
      throw new Error('Tool message not expected. Tool messages should always follow a tool call.');
    }
    if ((message.role === 'assistant' || message.role === 'user') && message.tool_calls) {
      for (const call of message.tool_calls) {
        if (i >= messages.length) throw new Error('Tool message expected. Got None.');
        const answer = messages[i++]!;
        if (answer.role !== 'tool') throw new Error(`Tool message expected. Got ${answer.role} message`);
        if (answer.id !== call.id) throw new Error(`Tool call id mismatch. Got ${call.id} and ${answer.id}`);
        pairs.push([call, answer]);
      }
    }
  }
  return pairs;
};
