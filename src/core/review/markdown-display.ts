// The conversation and gold actions as the reviewer model reads them (reference: MarkdownDisplay.display_messages
// and display_actions in src/tau2/utils/display.py). Hand-written for byte-exact prompts.
import { dumpsPy } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { Action } from '../schemas/task.ts';

/** `json.dumps(value, indent=2)`: ASCII-escaped, keys in their order. */
const jsonIndented = (value: unknown): string => dumpsPy(value as PyValue, { indent: 2 });

const displayMessage = (message: Message): string => {
  const prefix = message.turn_idx === null ? '' : `[TURN ${message.turn_idx}] `;
  const parts: string[] = [];
  if (message.role === 'assistant' || message.role === 'user') {
    parts.push(`${prefix}**${message.role}**:`);
    if (message.content) parts.push(message.content);
    for (const call of message.tool_calls ?? []) parts.push(`**Tool Call**: ${call.name}\n\`\`\`json\n${jsonIndented(call.arguments)}\n\`\`\``);
  } else if (message.role === 'tool') {
    parts.push(`${prefix}**tool${message.error ? ' (Error)' : ''}**:`);
    // "Reponse" is the reference's spelling, which the reviewer model reads.
    parts.push(`Reponse to: ${message.requestor}`);
    if (message.content) parts.push(`\`\`\`\n${message.content}\n\`\`\``);
  } else {
    parts.push(`${prefix}**system**:`);
    if (message.content) parts.push(message.content);
  }
  return parts.join('\n');
};

export const displayMessages = (messages: readonly Message[]): string => messages.map(displayMessage).join('\n\n');

/** Every field of each action (model_dump), in a json code block. */
export const displayActions = (actions: readonly Action[]): string => `\`\`\`json\n${jsonIndented(actions)}\n\`\`\``;

/**
 * What the simulated user saw: its own messages and tool results, and the agent's messages without their tool
 * calls (an agent turn made only of tool calls is left out). Reference: UserOnlyReviewer.make_user_visible_trajectory.
 */
export const userVisibleMessages = (messages: readonly Message[]): Message[] =>
  messages.flatMap((m): Message[] => {
    if (m.role === 'user') return [m];
    if (m.role === 'tool') return m.requestor === 'user' ? [m] : [];
    if (m.role === 'assistant') {
      if (m.tool_calls === null) return [m];
      return m.content === null ? [] : [{ ...m, tool_calls: null }];
    }
    return [];
  });
