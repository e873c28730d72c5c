// `tau2-edge run --agent a2a --agent-url URL` on the local worker the CLI starts: an agent built with the official
// A2A SDK, calling the tools over MCP, plays mock create_task_1; the results file records its tool calls and
// reward 1.0. --in-process is refused, naming why.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUserSimulator, startFakeOpenAI, text } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { startSdkAgent } from '../support/a2a-agents.ts';
import type { SdkAgent } from '../support/a2a-agents.ts';
import { parsePyJson, pyFloat } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';

let fake: FakeOpenAI;
let agent: SdkAgent;
let dir: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler((request) => {
    if (!isUserSimulator(request)) return text('ok');
    const spoken = (request.body as { messages: { role: string }[] }).messages.some((m) => m.role === 'assistant');
    return text(spoken ? 'Thanks, that is all. ###STOP###' : "Please create a task called 'Important Meeting' for user_1.");
  });
  agent = await startSdkAgent({
    style: 'task',
    brain: async ({ tools, turn }) => {
      if (turn === 0) await tools.call('create_task', { user_id: 'user_1', title: 'Important Meeting' });
      return 'Your task Important Meeting has been created.';
    },
  });
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-run-a2a-'));
  process.env.OPENAI_API_KEY = 'sk-run-a2a-test';
});

afterAll(async () => {
  await agent.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('tau2-edge run --agent a2a', () => {
  it('plays mock create_task_1 with the A2A agent on the local worker, to reward 1.0', async () => {
    const save = path.join(dir, 'results.json');
    const out = await capture(['run', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent', 'a2a', '--agent-url', agent.url, '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', save]);
    expect(out.code, out.text + out.errors).toBe(0);
    expect(out.text).toMatch(/task create_task_1 trial 0: user_stop, reward 1\.0/);
    const results = ResultsSchema.parse(parsePyJson(await readFile(save, 'utf8')));
    expect(results.info.agent_info.implementation).toBe('a2a');
    const [simulation] = results.simulations;
    expect(simulation!.reward_info?.reward).toEqual(pyFloat(1));
    expect((simulation!.messages ?? []).flatMap((m) => ((m as { tool_calls?: { name: string }[] | null }).tool_calls ?? []).map((c) => c.name))).toEqual(['create_task']);
  }, 240_000);

  it('refuses --in-process, and --agent a2a without --agent-url, naming the flag', async () => {
    const inProcess = await capture(['run', '--domain', 'mock', '--agent', 'a2a', '--agent-url', agent.url, '--in-process']);
    expect(inProcess.code).not.toBe(0);
    expect(inProcess.errors + inProcess.text).toContain('--agent a2a runs on a worker');
    const noUrl = await capture(['run', '--domain', 'mock', '--agent', 'a2a']);
    expect(noUrl.code).not.toBe(0);
    expect(noUrl.errors + noUrl.text).toContain('agent_endpoint');
  });
});
