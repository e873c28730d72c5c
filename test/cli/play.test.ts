// `tau2-edge play`: what a person types becomes the message sent (the reference's parse_action_string formats),
// and a whole session on the real local worker: the player's tool call and reply are graded like any episode.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { repoRoot } from '../../src/cli/local/worker.ts';
import { functionalCall, playedMessage } from '../../src/core/gym-action.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import { domains } from '../../domains/registry.ts';
import { loadDomain } from '../../src/cli/data.ts';
import { selectTasks } from '../../src/core/tasks.ts';

describe('play actions', () => {
  it('reads functional calls with Python literals, JSON tool calls and plain text', () => {
    expect(functionalCall(`book(origin='NYC', n=2, price=3.5, direct=True, via=None, legs=['a', "b"], meta={'k': (1, 2)},)`)).toEqual({
      name: 'book',
      arguments: { origin: 'NYC', n: 2, price: pyFloat(3.5), direct: true, via: null, legs: ['a', 'b'], meta: { k: [1, 2] } },
    });
    expect(functionalCall('get_users()')).toEqual({ name: 'get_users', arguments: {} });
    expect(functionalCall(`say(text='it\\'s')`)).toEqual({ name: 'say', arguments: { text: "it's" } });
    expect(playedMessage(`create_task(user_id='user_1', title='Important Meeting')`, 3)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'create_task', arguments: '{"user_id": "user_1", "title": "Important Meeting"}' } }],
    });
    expect(playedMessage('{"name": "get_users", "arguments": {}}', 0).tool_calls?.[0]?.function).toEqual({ name: 'get_users', arguments: '{}' });
    expect(playedMessage('Hello (again), how can I help?', 0)).toEqual({ role: 'assistant', content: 'Hello (again), how can I help?', tool_calls: null });
    expect(() => playedMessage(`create_task(user_id=user_1)`, 0)).toThrow("'user_1' is not a literal");
    expect(() => playedMessage('   ', 0)).toThrow('Action cannot be empty');
  });
});

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
});
afterAll(async () => fake.close());

/** Runs bin/tau2-edge with `lines` typed on its standard input; resolves with its exit code and output. */
const session = (args: string[], lines: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), args, { env: { ...process.env, OPENAI_API_KEY: 'sk-test-play' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });

describe('tau2-edge play on the local worker', () => {
  it('plays the agent of a mock task: tools, a malformed call refused, a tool call, a reply, the grade', async () => {
    const { code, stdout, stderr } = await session(
      ['play', '--domain', 'mock', '--task-id', 'create_task_1', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL],
      ['tools', 'create_task(user_id=user_1)', `create_task(user_id='user_1', title='Important Meeting')`, 'Your task Important Meeting has been created.'],
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^episode \S+ \(run [0-9a-f-]{36}\): task create_task_1, you play the agent$/m);
    expect(stdout).toContain('  you: Hi! How can I help you today?');
    expect(stdout).toContain('  user: Hi! Could you list the users, please?');
    expect(stdout).toMatch(/^ {2}create_task\(user_id, title, description\): /m);
    expect(stdout).toContain("not sent: 'user_1' is not a literal");
    expect(stdout).toMatch(/^ {2}tool result: \{"task_id": "task_2", "title": "Important Meeting"/m);
    expect(stdout).toContain('  user: Thanks, that is all I needed. ###STOP###');
    expect(stdout).toMatch(/^episode over: user_stop, reward 1\.0$/m);
  }, 180_000);

  it('plays the agent of a banking_knowledge task under a retrieval configuration: its policy, a transfer, the grade', async () => {
    const { code, stdout, stderr } = await session(
      ['play', '--domain', 'banking_knowledge', '--task-id', 'task_004', '--retrieval-config', 'no_knowledge', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL],
      [`transfer_to_human_agents(summary='ownership question', reason='account_ownership_dispute')`, 'A colleague will take over.'],
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^episode \S+ \(run [0-9a-f-]{36}\): task task_004, you play the agent$/m);
    expect(stdout).toMatch(/^ {2}tool result: Transfer successful \(reason: account_ownership_dispute\)/m);
    expect(stdout).toMatch(/^episode over: user_stop, reward 1\.0$/m);
  }, 180_000);

  it('without --domain asks what it needs as the reference does: domain, role, mode, the user model, the task', async () => {
    const domainNumber = Object.keys(domains).indexOf('mock') + 1;
    const { data } = await loadDomain('mock');
    const taskNumber = selectTasks('mock', data.tasks, data.splits, { split: data.splits ? 'base' : null, taskIds: null, numTasks: null }).findIndex((t) => t.id === 'create_task_1') + 1;
    const { code, stdout, stderr } = await session(
      ['play', '--llm-base-url', fake.baseURL],
      // A number out of range is asked again; Enter takes the default (no, no).
      ['99', String(domainNumber), '', '', 'fake-user', String(taskNumber), `create_task(user_id='user_1', title='Important Meeting')`, 'Your task Important Meeting has been created.'],
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(new RegExp(`^ {2}${domainNumber}\\. mock$`, 'm'));
    expect(stdout).toContain(`Please enter a number between 1 and ${Object.keys(domains).length}`);
    expect(stdout).toContain('Play as User? [y/n] (n): ');
    expect(stdout).toContain('Enable Solo Mode? [y/n] (n): ');
    expect(stdout).toMatch(new RegExp(`^ {2}${taskNumber}\\. create_task_1\\b`, 'm'));
    expect(stdout).toMatch(/^episode \S+ \(run [0-9a-f-]{36}\): task create_task_1, you play the agent$/m);
    expect(stdout).toMatch(/^episode over: user_stop, reward 1\.0$/m);
    // The user simulator ran on the model given.
    expect(fake.requests.some((r) => (r.body as { model?: string }).model === 'fake-user')).toBe(true);
  }, 180_000);

  it('plays the user against the built-in agent: the scenario, the agent\'s replies, a stop', async () => {
    const { code, stdout, stderr } = await session(
      ['play', '--domain', 'mock', '--task-id', 'create_task_1', '--role', 'user', '--agent-llm', 'fake-agent', '--llm-base-url', fake.baseURL],
      ['scenario', 'tools', 'Could you list the users, please?', 'Thanks! ###STOP###'],
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/you play the user$/m);
    expect(stdout).toContain('  agent: Hi! How can I help you today?');
    expect(stdout).toContain("Create a new task called 'Important Meeting' for user_1.");
    expect(stdout).toMatch(/^ {2}check_notifications\(\): /m);
    expect(stdout).toContain('  agent: Those are all the users.');
    expect(stdout).toMatch(/^episode over: user_stop, reward \d\.\d$/m);
  }, 180_000);
});
