// Agent system prompts, byte-exact with the reference (reference: src/tau2/agent/llm_agent.py).
import { pyStr } from '../py/index.ts';
import type { Action } from '../schemas/task.ts';

export const AGENT_INSTRUCTION =
  'You are a customer service agent that helps the user according to the <policy> provided below.\n' +
  'In each turn you can either:\n- Send a message to the user.\n- Make a tool call.\n' +
  'You cannot do both at the same time.\n\n' +
  'Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.';

export const AGENT_GT_INSTRUCTION =
  'You are testing that our user simulator is working correctly.\n' +
  'User simulator will have an issue for you to solve.\n' +
  'You must behave according to the <policy> provided below.\n' +
  'To make following the policy easier, we give you the list of resolution steps you are expected to take.\n' +
  'These steps involve either taking an action or asking the user to take an action.\n\n' +
  'In each turn you can either:\n- Send a message to the user.\n- Make a tool call.\n' +
  'You cannot do both at the same time.\n\n' +
  'Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.';

export const SOLO_STOP_TOOL = 'done';
export const STOP_TOKEN = '###STOP###';

export const AGENT_SOLO_INSTRUCTION =
  'You are a customer service agent that helps the user according to the <policy> provided below.\n' +
  "You will be provided with a ticket that contains the user's request.\n" +
  'You will need to plan and call the appropriate tools to solve the ticket.\n\n' +
  'You cannot communicate with the user, only make tool calls.\n' +
  'Stop when you consider that you have solved the ticket.\n' +
  `To do so, send a message containing a single tool call to the \`${SOLO_STOP_TOOL}\` tool. ` +
  'Do not include any other tool calls in this last message.\n\n' +
  'Always follow the policy. Always make sure you generate valid JSON only.';

export const agentSystemPrompt = (policy: string): string =>
  `<instructions>\n${AGENT_INSTRUCTION}\n</instructions>\n<policy>\n${policy}\n</policy>`;

/** `Action.get_func_format()`: `name(k=v, …)` with Python `str()` of each value. */
export const funcFormat = (action: Action): string =>
  `${action.name}(${Object.entries(action.arguments)
    .map(([k, v]) => `${k}=${pyStr(v)}`)
    .join(', ')})`;

export const resolutionSteps = (actions: readonly Action[]): string =>
  actions
    .map((action, i) => {
      const step =
        action.requestor === 'user'
          ? `Instruct the user to perform the following action: ${funcFormat(action)}.`
          : `Perform the following action: ${funcFormat(action)}.`;
      return `[Step ${i + 1}] ${step}`;
    })
    .join('\n');

export const gtSystemPrompt = (policy: string, actions: readonly Action[]): string =>
  `<instructions>\n${AGENT_GT_INSTRUCTION}\n</instructions>\n<policy>\n${policy}\n</policy>\n` +
  `<resolution_steps>\n${resolutionSteps(actions)}\n</resolution_steps>`;

export const soloSystemPrompt = (policy: string, ticket: string | null): string =>
  `<instructions>\n${AGENT_SOLO_INSTRUCTION}\n</instructions>\n<policy>\n${policy}\n</policy>\n<ticket>\n${pyStr(ticket)}\n</ticket>`;
