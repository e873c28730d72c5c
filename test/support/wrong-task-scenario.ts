// A scripted mock-domain conversation in which the simulated user errs a given number of times, for the tests of
// forks and repairs: one handler on the fake OpenAI-compatible server plays user, agent and user-only reviewer.
import { isAgent, isUserSimulator, systemPromptStartsWith, text, toolCall } from './fake-openai.ts';
import type { CapturedRequest, FakeHandler, FakeOpenAI } from './fake-openai.ts';
import { capture } from './cli.ts';

interface WireMessage {
  readonly role: string;
  readonly content: string | null;
}
const messagesOf = (request: CapturedRequest): WireMessage[] => (request.body as { messages: WireMessage[] }).messages;
export const isUserReviewer = systemPromptStartsWith('# Goal\nAssess this conversation to determine if the user simulator made any errors');

/**
 * The user opens, the agent asks which task, the user names task_2 (its error) on its first `wrongAnswers`
 * answers, then task_1; the agent marks the task named as completed. The reviewer states the error's `severity`
 * when given.
 */
export const wrongTaskScenario = (wrongAnswers: number, severity?: string): FakeHandler => {
  let answers = 0;
  return (request) => {
    const messages = messagesOf(request);
    if (isUserSimulator(request)) {
      // The user simulator's own earlier turns are the `assistant` messages of its history.
      const spoken = messages.filter((m) => m.role === 'assistant').length;
      if (spoken === 0) return text('Hi, I need to update one of my tasks.');
      if (spoken > 1) return text('Thanks, that is all. ###STOP###');
      answers += 1;
      return text(`Please mark ${answers <= wrongAnswers ? 'task_2' : 'task_1'} as completed.`);
    }
    if (isAgent(request)) {
      const last = messages.at(-1)!;
      if (last.role === 'tool') return text('Done: the task is completed.');
      const task = /task_\d/.exec(last.content ?? '')?.[0];
      if (task === undefined) return text('Which task should I mark as completed?');
      return toolCall('update_task_status', JSON.stringify({ task_id: task, status: 'completed' }), `call_${task}`);
    }
    if (isUserReviewer(request)) {
      const conversation = messages[1]!.content ?? '';
      const wrong = /\[TURN (\d+)\] \*\*user\*\*:\nPlease mark task_2/.exec(conversation);
      if (wrong === null) return text('```json\n{"summary": "The user followed the instructions.", "errors": []}\n```');
      const error = { turn_idx: Number(wrong[1]), ...(severity === undefined ? {} : { severity }), error_type: 'content_error', error_tags: ['wrong_goal'], reasoning: 'Asked for task_2; the instructions name task_1.', user_message: null, correct_behavior: 'Ask for task_1.' };
      return text(`\`\`\`json\n${JSON.stringify({ summary: 'The user misstated the goal.', errors: [error] })}\n\`\`\``);
    }
    return text('unexpected request');
  };
};


/** Saves to `file` a one-simulation mock run (update_task_1) whose user errs on its first `wrongAnswers` answers; `fake` keeps playing the scenario. */
export const recordWrongTaskRun = async (fake: FakeOpenAI, file: string, wrongAnswers: number): Promise<string> => {
  fake.setHandler(wrongTaskScenario(wrongAnswers));
  const run = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'update_task_1', '--agent-llm', 'scripted-agent',
    '--user-llm', 'scripted-user', '--llm-base-url', fake.baseURL, '--save-to', file]);
  if (run.code !== 0) throw new Error(`the scripted run failed: ${run.errors}`);
  return file;
};
