// banking_knowledge results files made by the engine (`tau2-edge run --in-process` over the fake provider), one
// per retrieval configuration, for the tests that split results by configuration; and a mock-domain file to
// mix in. The scripted agent replays a task's gold actions (scored 1.0) or does nothing (0.0), per
// configuration and task as BANKING_PLAN says, so every figure the tests expect follows from real grading.
import path from 'node:path';
import { isAgent, isUserSimulator, mockConversation, startFakeOpenAI, text, toolCall } from './fake-openai.ts';
import type { CapturedRequest, FakeReply } from './fake-openai.ts';
import { capture } from './cli.ts';
import { loadDomain } from '../../src/cli/data.ts';
import type { Task } from '../../src/core/schemas/task.ts';

/** How many of a task's two trials the agent plays: both, the first it is asked for, or none. */
type Played = 'both' | 'one' | 'none';

/** The two configurations compared, in order, and what the agent does in each. */
export const BANKING_PLAN = {
  no_knowledge: { task_004: 'one', task_005: 'none', task_075: 'both', task_076: 'none' },
  bm25: { task_004: 'both', task_005: 'one', task_075: 'both', task_076: 'none' },
} as const satisfies Record<string, Record<string, Played>>;
export type PlannedConfig = keyof typeof BANKING_PLAN;
const TASK_IDS = Object.keys(BANKING_PLAN.bm25);
export const BANKING_TRIALS = 2;

type Wire = { role: string; content: string | null };
const messagesOf = (request: CapturedRequest): Wire[] => (request.body as { messages: Wire[] }).messages;
const modelOf = (request: CapturedRequest): string => (request.body as { model: string }).model;
/** The prompt indents the instructions line by line; a task's longest line identifies it. */
const longestLine = (value: string): string => value.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '');

export interface BankingFiles {
  /** One results file per configuration of BANKING_PLAN, in its order. */
  readonly byConfig: Readonly<Record<PlannedConfig, string>>;
  /** A mock-domain run (no retrieval configuration). */
  readonly mock: string;
}

/** Runs each planned configuration (and a mock run) into `dir`. */
export const bankingResultsFiles = async (dir: string): Promise<BankingFiles> => {
  const { data } = await loadDomain('banking_knowledge');
  const task = (id: string): Task => data.tasks.find((t) => t.id === id)!;
  const mock = mockConversation();
  /** Conversations begun per configuration and task, so `one` plays the first only. */
  const begun = new Map<string, number>();

  const user = (request: CapturedRequest): FakeReply => {
    const [system, ...rest] = messagesOf(request);
    const id = TASK_IDS.find((t) => system!.content!.includes(longestLine(task(t).user_scenario.instructions as string)))!;
    return rest.some((m) => m.role === 'assistant') ? text('Thanks. ###STOP###') : text(`Hello, this is ${id}.`);
  };
  const agent = (config: PlannedConfig, request: CapturedRequest): FakeReply => {
    const history = messagesOf(request);
    const id = /this is (task_\d+)/.exec(history.find((m) => m.role === 'user')!.content!)![1]!;
    const done = history.filter((m) => m.role === 'tool').length;
    if (done === 0) {
      const key = `${config}/${id}`;
      const n = begun.get(key) ?? 0;
      begun.set(key, n + 1);
      const played = (BANKING_PLAN[config] as Record<string, Played>)[id];
      if (played === 'none' || (played === 'one' && n > 0)) return text('I cannot help with that.');
    }
    const next = (task(id).evaluation_criteria?.actions ?? [])[done];
    return next ? toolCall(next.name, JSON.stringify(next.arguments), `call_${done}`) : text('All done.');
  };

  const fake = await startFakeOpenAI();
  // The agent's model names its configuration; the mock run has its own models.
  fake.setHandler((request) => {
    const model = modelOf(request);
    if (model.startsWith('mock-')) return mock(request);
    if (isUserSimulator(request)) return user(request);
    return isAgent(request) ? agent(model.replace('agent-', '') as PlannedConfig, request) : text('ok');
  });
  const run = async (file: string, args: string[]): Promise<string> => {
    const { code, text: out, errors } = await capture(['run', '--in-process', '--llm-base-url', fake.baseURL, '--max-concurrency', '1', '--save-to', file, ...args]);
    if (code !== 0) throw new Error(`run failed: ${out}${errors}`);
    return file;
  };
  try {
    const byConfig = {} as Record<PlannedConfig, string>;
    for (const config of Object.keys(BANKING_PLAN) as PlannedConfig[]) {
      byConfig[config] = await run(path.join(dir, `banking-${config}.json`), [
        '--domain', 'banking_knowledge', '--retrieval-config', config, '--task-ids', ...TASK_IDS, '--num-trials', String(BANKING_TRIALS),
        '--agent-llm', `agent-${config}`, '--user-llm', 'fake-user',
      ]);
    }
    const mockFile = await run(path.join(dir, 'mock.json'), ['--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'mock-agent', '--user-llm', 'mock-user']);
    return { byConfig, mock: mockFile };
  } finally {
    await fake.close();
  }
};
