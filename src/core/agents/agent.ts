// The three LLM agents: llm_agent, llm_agent_gt (oracle plan) and llm_agent_solo (no user) (reference:
// src/tau2/agent/llm_agent.py); and the external agent, whose answers come from outside, with or without a user
// (reference: GymAgent in src/tau2/gym/gym_agent.py).
import type { ParticipantMessage } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import { isExternalAgent, isSoloAgent } from '../schemas/episode.ts';
import type { AgentKind } from '../schemas/episode.ts';
import type { ToolSchema } from '../llm/tool-schema.ts';
import { participantMessageFrom } from '../llm/to-message.ts';
import { agentChatMessages } from './history.ts';
import { SOLO_STOP_TOOL, STOP_TOKEN, agentSystemPrompt, gtSystemPrompt, soloSystemPrompt } from './prompts.ts';
import { argsWithSeed } from './participant.ts';
import type { Participant, ParticipantContext } from './participant.ts';


/** The stop tool of solo agents and external agents (the reference's `done` function as a tool). */
const DONE_TOOL: ToolSchema = {
  type: 'function',
  function: {
    name: SOLO_STOP_TOOL,
    description: 'Call this function when you are done with the task.',
    parameters: { properties: {}, title: 'parameters', type: 'object' },
  },
};

/** Whether an agent can run a task (reference `check_valid_task`), applied after task selection. */
export const isValidTaskFor = (kind: AgentKind, task: Task): boolean => {
  const actions = task.evaluation_criteria?.actions ?? [];
  // The reference's gym environments check no task.
  if (kind === 'llm_agent' || isExternalAgent(kind)) return true;
  if (kind === 'llm_agent_gt') return task.evaluation_criteria !== null && actions.length > 0;
  if (task.initial_state !== null) {
    return (task.initial_state.message_history ?? []).every(
      (m) => m.role !== 'user' && !(m.role === 'assistant' && m.tool_calls === null),
    );
  }
  return task.ticket !== null && task.evaluation_criteria !== null && actions.length > 0;
};

export interface AgentContext extends ParticipantContext {
  readonly kind: AgentKind;
}

export const createAgent = (ctx: AgentContext): Participant => {
  const { kind, task, environment, model, now } = ctx;
  if (!isValidTaskFor(kind, task)) throw new Error(`Task ${task.id} is not valid. Cannot run ${kind}.`);
  const policy = environment.policy;
  const solo = isSoloAgent(kind);
  const external = isExternalAgent(kind);
  const system =
    kind === 'llm_agent_gt'
      ? gtSystemPrompt(policy, task.evaluation_criteria?.actions ?? [])
      : solo
        ? soloSystemPrompt(policy, task.ticket)
        : agentSystemPrompt(policy);
  const ownTools = solo && environment.hasUserTools ? [...environment.toolSchemas(), ...environment.userToolSchemas()] : environment.toolSchemas();
  const tools = solo || external ? [...ownTools, DONE_TOOL] : ownTools;

  return {
    request: (trajectory, seed) => ({
      messages: agentChatMessages(system, trajectory),
      tools,
      toolChoice: solo ? 'required' : 'auto',
      llmArgs: argsWithSeed(model.llmArgs, seed),
    }),
    accept(response): ParticipantMessage {
      const message = participantMessageFrom('assistant', response, now());
      if (!solo && !external) return message;
      if (!external && message.tool_calls === null) throw new Error('LLMSoloAgent only supports tool calls.');
      if (message.tool_calls === null) return message;
      // A `done` call ends the episode; other calls in the same message are dropped, never executed.
      return message.tool_calls.some((c) => c.name === SOLO_STOP_TOOL)
        ? { ...message, content: STOP_TOKEN, tool_calls: null }
        : message;
    },
    isStop: (message) => (solo || external) && message.content !== null && message.content.includes(STOP_TOKEN),
  };
};
