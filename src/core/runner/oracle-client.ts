// The oracle: a deterministic stand-in for both models that performs a task's gold actions in order, each
// by its requestor, then has the agent state the information to communicate and the user stop. It drives
// the real orchestrator and evaluator, so a task whose oracle run scores below 1.0 has a problem.
import { dumpsPy } from '../py/index.ts';
import type { Task } from '../schemas/task.ts';
import type { LlmClient, LlmRequest, LlmResponse } from '../llm/types.ts';
import { SOLO_STOP_TOOL } from '../agents/prompts.ts';

const reply = (content: string | null, toolCalls: LlmResponse['toolCalls'] = []): LlmResponse => ({
  content,
  toolCalls,
  usage: { completion_tokens: 0, prompt_tokens: 0 },
  cost: 0,
  rawData: null,
  generationTimeSeconds: 0,
});

/** Which side a request comes from: the user simulator's system prompt is its guideline file. */
const isUserRequest = (request: LlmRequest): boolean => {
  const system = request.messages[0];
  return system?.role === 'system' && system.content.startsWith('# User Simulation Guidelines');
};

export const createOracleClient = (task: Task): LlmClient => {
  const actions = task.evaluation_criteria?.actions ?? [];
  const communicate = task.evaluation_criteria?.communicate_info ?? [];
  let cursor = 0;
  let agentConcluded = false;
  const callNext = (): LlmResponse => {
    const action = actions[cursor]!;
    cursor += 1;
    return reply(null, [{ id: `oracle_call_${cursor}`, name: action.name, arguments: dumpsPy(action.arguments) }]);
  };
  return {
    async generate(request: LlmRequest): Promise<LlmResponse> {
      const next = actions[cursor];
      if (isUserRequest(request)) {
        if (next?.requestor === 'user') return callNext();
        if (!next && agentConcluded) return reply('Thank you. ###STOP###');
        return reply('Please go ahead.');
      }
      // In solo mode the agent also performs the user's actions (it holds the user's tools).
      const solo = request.toolChoice === 'required';
      if (next && (next.requestor === 'assistant' || solo)) return callNext();
      if (!next && solo) {
        return reply(null, [{ id: 'oracle_done', name: SOLO_STOP_TOOL, arguments: '{}' }]);
      }
      if (!next) agentConcluded = true;
      const said = communicate.length > 0 ? `${communicate.join('. ')}. ` : '';
      return reply(next ? `${said}Please perform the next step on your side.` : `${said}Everything is done.`);
    },
  };
};
