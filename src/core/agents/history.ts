// What each participant sees of the trajectory, and how it is sent to the model (reference:
// is_valid_agent_history_message, is_valid_user_history_message, flip_roles, to_litellm_messages).
import type { Message } from '../schemas/message.ts';
import type { ChatMessage } from '../llm/types.ts';

/** The agent sees its own messages, the user's text messages and the results of its own tool calls. */
export const isAgentHistoryMessage = (m: Message): boolean =>
  m.role === 'assistant' ||
  (m.role === 'user' && m.tool_calls === null) ||
  (m.role === 'tool' && m.requestor === 'assistant');

/** The user sees its own messages, the agent's text messages and the results of its own tool calls. */
export const isUserHistoryMessage = (m: Message): boolean =>
  m.role === 'user' ||
  (m.role === 'assistant' && m.tool_calls === null) ||
  (m.role === 'tool' && m.requestor === 'user');

const toolCallsOf = (m: Message) =>
  m.role === 'assistant' || m.role === 'user'
    ? (m.tool_calls?.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) ?? null)
    : null;

/** A participant's own turn as it goes back to its model: with its provider state, when it has one. */
const ownTurn = (m: Message): ChatMessage => {
  const state = m.role === 'assistant' || m.role === 'user' ? m.provider_state : undefined;
  return { role: 'assistant', content: m.content, tool_calls: toolCallsOf(m), ...(state ? { provider_state: state } : {}) };
};

/** The agent's request messages: roles unchanged. */
export const agentChatMessages = (system: string, trajectory: readonly Message[]): ChatMessage[] => [
  { role: 'system', content: system },
  ...trajectory.filter(isAgentHistoryMessage).map((m): ChatMessage => {
    switch (m.role) {
      case 'assistant':
        return ownTurn(m);
      case 'user':
        return { role: 'user', content: m.content };
      case 'tool':
        return { role: 'tool', content: m.content, tool_call_id: m.id };
      default:
        throw new Error(`unexpected ${m.role} message in agent history`);
    }
  }),
];

/** The user simulator's request messages: roles flipped, so the simulator speaks as the assistant. */
export const userChatMessages = (system: string, trajectory: readonly Message[]): ChatMessage[] => [
  { role: 'system', content: system },
  ...trajectory.filter(isUserHistoryMessage).map((m): ChatMessage => {
    switch (m.role) {
      case 'user':
        return ownTurn(m);
      case 'assistant':
        return { role: 'user', content: m.content };
      case 'tool':
        return { role: 'tool', content: m.content, tool_call_id: m.id };
      default:
        throw new Error(`unexpected ${m.role} message in user history`);
    }
  }),
];
