// The LLM user simulator (reference: src/tau2/user/user_simulator.py).
import type { ParticipantMessage } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { DataSource } from '../environment/domain.ts';
import { participantMessageFrom } from '../llm/to-message.ts';
import { userChatMessages } from '../agents/history.ts';
import { argsWithSeed } from '../agents/participant.ts';
import type { Participant, ParticipantContext } from '../agents/participant.ts';
import { renderUserScenario } from './scenario.ts';

export const USER_STOP_TOKENS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;

/** The two guideline files, verbatim: one for users without tools, one for users with tools. */
export interface UserGuidelines {
  readonly plain: string;
  readonly withTools: string;
}

export const GUIDELINE_FILES = {
  plain: 'user_simulator/simulation_guidelines.md',
  withTools: 'user_simulator/simulation_guidelines_tools.md',
} as const;

export const loadUserGuidelines = async (source: DataSource): Promise<UserGuidelines> => ({
  plain: await source.readText(GUIDELINE_FILES.plain),
  withTools: await source.readText(GUIDELINE_FILES.withTools),
});

export const userSystemPrompt = (guidelines: string, task: Task): string =>
  `${guidelines}\n\n<scenario>\n${renderUserScenario(task.user_scenario)}\n</scenario>`;

/** Any of the three tokens in the user's text ends the conversation (all are `user_stop`). */
export const isUserStop = (message: ParticipantMessage): boolean =>
  message.tool_calls === null &&
  message.content !== null &&
  USER_STOP_TOKENS.some((token) => message.content!.includes(token));

export interface UserContext extends ParticipantContext {
  readonly guidelines: UserGuidelines;
}

export const createUserSimulator = (ctx: UserContext): Participant => {
  const { task, environment, guidelines, model, now } = ctx;
  // An empty tool list counts as no tools (reference: `get_user_tools(...) or None`).
  const userTools = environment.hasUserTools ? environment.userToolSchemas(task.user_tools) : [];
  const tools = userTools.length > 0 ? userTools : null;
  const system = userSystemPrompt(tools === null ? guidelines.plain : guidelines.withTools, task);
  return {
    request: (trajectory, seed) => ({
      messages: userChatMessages(system, trajectory),
      tools,
      toolChoice: tools === null ? null : 'auto',
      llmArgs: argsWithSeed(model.llmArgs, seed),
    }),
    accept: (response) => participantMessageFrom('user', response, now()),
    isStop: isUserStop,
  };
};
