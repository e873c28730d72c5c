// `tau2-edge run --agent a2a --agent-url URL` on the local worker the CLI starts, and --in-process: an agent built
// with the official A2A SDK, calling the tools over MCP, plays mock create_task_1 (and in process airline task 15);
// the results file records its tool calls in order and reward 1.0, in the same shape either way.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUserSimulator, startFakeOpenAI, text } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { startSdkAgent } from '../support/a2a-agents.ts';
import type { SdkAgent } from '../support/a2a-agents.ts';
import { FINAL, goldActions, knowing } from '../support/a2a-brains.ts';
import { parsePyJson, pyFloat } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';

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

const toolCallNames = (results: Results): string[][] =>
  results.simulations.map((s) => (s.messages ?? []).flatMap((m) => ((m as { tool_calls?: { name: string }[] | null }).tool_calls ?? []).map((c) => c.name)));

/** What a results file holds, without its values: the keys of the file, its info and simulations, and each message's role and keys. */
const shapeOf = (results: Results) => ({
  keys: Object.keys(results).sort(),
  info: Object.keys(results.info).sort(),
  simulations: results.simulations.map((s) => ({ keys: Object.keys(s).sort(), messages: (s.messages ?? []).map((m) => [m.role, Object.keys(m).sort()]) })),
});

const readResults = async (file: string): Promise<Results> => ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));

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

  it('plays mock create_task_1 --in-process to reward 1.0, the results file shaped as the local worker’s', async () => {
    const save = path.join(dir, 'in-process.json');
    const out = await capture(['run', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent', 'a2a', '--agent-url', agent.url, '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', save, '--in-process']);
    expect(out.code, out.text + out.errors).toBe(0);
    expect(out.text).toMatch(/task create_task_1 trial 0: user_stop, reward 1\.0/);
    const results = await readResults(save);
    expect(results.info.agent_info.implementation).toBe('a2a');
    expect(results.simulations[0]!.reward_info?.reward).toEqual(pyFloat(1));
    expect(toolCallNames(results)).toEqual([['create_task']]);
    // The briefing names this process's MCP endpoint of the episode, with a token of its own.
    const briefing = agent.received.at(-1)!.data[0] as { mcp: { url: string; token: string }; policy: string };
    expect(briefing.mcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/episodes\/[\w-]+\/mcp$/);
    expect(briefing.mcp.token).toMatch(/^tau2ep_/);
    expect(briefing.policy.length).toBeGreaterThan(100);
    expect(shapeOf(results)).toEqual(shapeOf(await readResults(path.join(dir, 'results.json'))));
  }, 240_000);

  it('plays airline task 15 --in-process to reward 1.0, its gold tool calls recorded in order', async () => {
    const actions = await goldActions('airline', '15');
    const knower = await startSdkAgent({ style: 'message', brain: knowing(actions) });
    try {
      const save = path.join(dir, 'airline.json');
      const out = await capture(['run', '--domain', 'airline', '--task-ids', '15', '--agent', 'a2a', '--agent-url', knower.url, '--user-llm', 'fake-user', '--judge-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', save, '--in-process']);
      expect(out.code, out.text + out.errors).toBe(0);
      const results = await readResults(save);
      expect(results.simulations[0]!.reward_info?.reward).toEqual(pyFloat(1));
      expect(toolCallNames(results)).toEqual([actions.map((a) => a.name)]);
      expect(results.simulations[0]!.messages!.filter((m) => m.role === 'assistant').at(-1)).toMatchObject({ content: FINAL });
    } finally {
      await knower.close();
    }
  }, 240_000);

  it('--in-process: an agent that fails its turn ends the episode as an infrastructure error naming why', async () => {
    const failing = await startSdkAgent({
      style: 'task',
      brain: async () => {
        throw new Error('the agent’s model is down');
      },
    });
    try {
      const save = path.join(dir, 'failing.json');
      const out = await capture(['run', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent', 'a2a', '--agent-url', failing.url, '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', save, '--max-retries', '0', '--in-process']);
      expect(out.text + out.errors).toContain('ended failed');
      const [simulation] = (await readResults(save)).simulations;
      expect(simulation!.termination_reason).toBe('infrastructure_error');
    } finally {
      await failing.close();
    }
  }, 240_000);

  it('--in-process: an agent whose card cannot be read stops the run at once, naming --agent-url', async () => {
    const out = await capture(['run', '--domain', 'mock', '--agent', 'a2a', '--agent-url', `${fake.baseURL}/no-agent-here`, '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, 'unreachable.json'), '--in-process']);
    expect(out.code).not.toBe(0);
    expect(out.errors + out.text).toContain('--agent-url: the A2A agent at');
  }, 60_000);

  it('refuses --agent a2a without --agent-url, naming the field', async () => {
    const noUrl = await capture(['run', '--domain', 'mock', '--agent', 'a2a']);
    expect(noUrl.code).not.toBe(0);
    expect(noUrl.errors + noUrl.text).toContain('agent_endpoint');
  });
});
