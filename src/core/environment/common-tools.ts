// Tools every domain shares with identical behaviour and schema.
import type { ToolSpec } from './toolkit.ts';

/** `transfer_to_human_agents`: GENERIC, never replayed; it does not end the conversation by itself. */
export const transferToHumanAgents: ToolSpec<unknown> = {
  type: 'generic',
  description:
    "Transfer the user to a human agent, with a summary of the user's issue.\n\nOnly transfer if\n -  the user explicitly asks for a human agent\n -  given the policy and the available tools, you cannot solve the user's issue.",
  parameters: {
    properties: {
      summary: { description: "A summary of the user's issue.", title: 'Summary', type: 'string' },
    },
    required: ['summary'],
    title: 'parameters',
    type: 'object',
  },
  run: () => 'Transfer successful',
};
