// Agents evaluated over A2A, built with the official A2A JavaScript SDK and calling the episode's tools over MCP
// with the official MCP SDK client, on the real local worker (workerd, D1, Durable Objects) with the simulated user
// on a scripted OpenAI-compatible server: an agent that replies with messages and one that answers with tasks each
// play mock create_task_1 and airline task 15 to reward 1.0 (one that speaks A2A 0.3 plays the mock task); the
// tools they call over MCP are the trajectory's tool calls, in order. The Worker plays them itself in runs
// (POST /v1/runs with the a2a agent), including one an A2A client asks tau2-edge, as an A2A agent, to start.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { GetTaskRequest, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { isUserSimulator, startFakeOpenAI, text } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { stopAll } from '../support/viewer-runs.ts';
import { startSdkAgent } from '../support/a2a-agents.ts';
import type { SdkAgent } from '../support/a2a-agents.ts';
import { FINAL, goldActions, knowing } from '../support/a2a-brains.ts';
import { startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { apiClient } from '../../src/client/index.ts';
import { episodeSeat } from '../../src/client/a2a-seat.ts';
import { connectA2aAgent } from '../../src/core/a2a/agent-client.ts';
import { playEpisode } from '../../src/core/a2a/play-episode.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { pyFloat } from '../../src/core/py/index.ts';

const OPERATOR_KEY = 'a2a-operator-key';

let fake: FakeOpenAI;
let worker: LocalWorker;
let dir: string;
const agents: SdkAgent[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-a2a-'));
  fake = await startFakeOpenAI();
  fake.setHandler((request) => {
    if (!isUserSimulator(request)) return text('ok');
    const spoken = (request.body as { messages: { role: string }[] }).messages.some((m) => m.role === 'assistant');
    return text(spoken ? 'Thanks, that is all. ###STOP###' : 'Hi! I need your help with my request.');
  });
  worker = await startLocalWorker({ persistTo: path.join(dir, 'state'), logFile: path.join(dir, 'worker.log'), env: { OPENAI_BASE_URL: fake.baseURL, API_KEY: OPERATOR_KEY, ALLOW_LOCAL_PROVIDERS: 'true', CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64') } });
}, 180_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await stopAll({ worker, fake, dir });
});

describe('an A2A agent plays an episode, calling its tools over MCP', () => {
  it.each([
    ['replies with messages (A2A 1.0)', 'mock', 'create_task_1', 'message', '1.0'],
    ['replies with messages (A2A 1.0)', 'airline', '15', 'message', '1.0'],
    ['answers with tasks that ask for input (A2A 1.0)', 'mock', 'create_task_1', 'task', '1.0'],
    ['answers with tasks that ask for input (A2A 1.0)', 'airline', '15', 'task', '1.0'],
    ['replies with messages (A2A 0.3, message/send)', 'mock', 'create_task_1', 'message', '0.3'],
  ] as const)('an agent that %s plays %s task %s to reward 1.0', async (_name, domain, taskId, style, version) => {
    const actions = await goldActions(domain, taskId);
    expect(actions.length).toBeGreaterThan(0);
    const agent = await startSdkAgent({ style, version, brain: knowing(actions) });
    agents.push(agent);
    const api = apiClient(worker.url, OPERATOR_KEY);
    const seat = await episodeSeat(api, { domain, task_id: taskId, llm_user: 'fake-user' });
    const connected = await connectA2aAgent(agent.url);
    expect(connected.endpoint).toEqual({ url: `${agent.url}/rpc`, version });

    await playEpisode(seat, connected.conversation());

    const episode = await api.episode(seat.episodeId);
    expect(episode).toMatchObject({ status: 'done', done: true, termination_reason: 'user_stop', reward_info: { reward: 1 } });
    // The tool the agent called over MCP is the turn's tool call, before its reply, in the reference's format.
    const calls = episode.messages.flatMap((m) => ((m as { tool_calls?: { name: string }[] }).tool_calls ?? []).map((c) => c.name));
    expect(calls).toEqual(actions.map((a) => a.name));
    const assistant = episode.messages.filter((m) => m['role'] === 'assistant');
    expect(assistant.at(-1)).toMatchObject({ content: FINAL });

    // The first message briefs the agent (a data part and its metadata): the MCP URL, the episode's token, the policy.
    expect(agent.received).toHaveLength(1);
    const [first] = agent.received;
    expect(first!.text).toBe('Hi! I need your help with my request.');
    expect(first!.data).toEqual([{ episode_id: seat.episodeId, mcp: { url: `${worker.url}/v1/episodes/${seat.episodeId}/mcp`, token: expect.any(String) }, policy: seat.briefing.policy }]);
    expect(seat.briefing.policy.length).toBeGreaterThan(100);
    if (version === '1.0') expect(first!.metadata).toEqual(first!.data[0]);
  });
});

describe('POST /v1/runs with an A2A agent', () => {
  it.each([
    ['replies with messages', 'message'],
    ['answers with tasks', 'task'],
  ] as const)('the Worker plays every episode with an agent that %s, to reward 1.0 on mock and airline tasks', async (_name, style) => {
    const api = apiClient(worker.url, OPERATOR_KEY);
    for (const [domain, taskId] of [
      ['mock', 'create_task_1'],
      ['airline', '15'],
    ] as const) {
      const agent = await startSdkAgent({ style, brain: knowing(await goldActions(domain, taskId)) });
      agents.push(agent);
      const { run_id } = await api.createRun(
        // One episode at a time: the second one's seat waits for it to start.
        RunConfigSchema.parse({ domain, task_ids: [taskId], num_trials: 2, max_concurrency: 1, agent: 'a2a', agent_endpoint: { url: agent.url }, llm_user: 'fake-user', llm_judge: 'fake-user' }),
      );
      let run = await api.run(run_id);
      for (const deadline = Date.now() + 120_000; run.status === 'running' && Date.now() < deadline; run = await api.run(run_id)) await new Promise((r) => setTimeout(r, 250));
      expect(run).toMatchObject({ status: 'completed', counts: { total: 2, passed: 2, infra_error: 0 } });
      expect(run.config).toMatchObject({ agent: 'a2a', agent_endpoint: { url: agent.url } });
      const results = await api.results(run_id);
      for (const simulation of results.simulations) {
        expect(simulation.reward_info?.reward).toEqual(pyFloat(1));
        const calls = (simulation.messages ?? []).flatMap((m) => ((m as { tool_calls?: { name: string }[] | null }).tool_calls ?? []).map((c) => c.name));
        expect(calls).toEqual((await goldActions(domain, taskId)).map((a) => a.name));
      }
      // One conversation per episode, each briefed once with its own episode's MCP endpoint.
      const briefings = agent.received.flatMap((r) => r.data) as { episode_id: string; mcp: { url: string } }[];
      expect(new Set(briefings.map((b) => b.episode_id)).size).toBe(2);
      for (const b of briefings) expect(b.mcp.url).toBe(`${worker.url}/v1/episodes/${b.episode_id}/mcp`);
    }
  });
});

describe('an A2A agent that cannot play', () => {
  it('a card without a JSON-RPC interface, or an agent whose calls fail, ends each episode as an infrastructure error naming why', async () => {
    const api = apiClient(worker.url, OPERATOR_KEY);
    const grpcOnly = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ name: 'grpc-only', supportedInterfaces: [{ url: 'http://127.0.0.1:1', protocolBinding: 'GRPC', protocolVersion: '1.0' }] }));
    });
    await new Promise<void>((resolve) => grpcOnly.listen(0, '127.0.0.1', resolve));
    const failing = await startSdkAgent({
      style: 'message',
      brain: async () => {
        throw new Error('the model behind this agent is down');
      },
    });
    agents.push(failing);
    try {
      for (const [url, reason] of [
        [`http://127.0.0.1:${(grpcOnly.address() as AddressInfo).port}`, /cannot be used: supportedInterfaces has no JSONRPC interface .*\(found GRPC 1\.0\)/],
        [failing.url, /task \S+ ended failed: .*the model behind this agent is down/],
      ] as const) {
        const { run_id } = await api.createRun(RunConfigSchema.parse({ domain: 'mock', task_ids: ['create_task_1'], agent: 'a2a', agent_endpoint: { url }, llm_user: 'fake-user', llm_judge: 'fake-user' }));
        let run = await api.run(run_id);
        for (const deadline = Date.now() + 60_000; run.status === 'running' && Date.now() < deadline; run = await api.run(run_id)) await new Promise((r) => setTimeout(r, 250));
        expect(run).toMatchObject({ status: 'completed', counts: { total: 1, infra_error: 1 } });
        expect(run.infra_errors[0]!.reason).toMatch(reason);
      }
    } finally {
      grpcOnly.close();
    }
  });
});

describe('re-running an a2a run’s infrastructure errors', () => {
  it('seats the agent again: an agent down for the first episode plays the re-run to reward 1.0', async () => {
    const api = apiClient(worker.url, OPERATOR_KEY);
    const actions = await goldActions('mock', 'create_task_1');
    let down = true;
    const play = knowing(actions);
    const agent = await startSdkAgent({
      style: 'message',
      brain: async (turn) => {
        if (down) throw new Error('not up yet');
        return play(turn);
      },
    });
    agents.push(agent);
    const { run_id } = await api.createRun(RunConfigSchema.parse({ domain: 'mock', task_ids: ['create_task_1'], agent: 'a2a', agent_endpoint: { url: agent.url }, llm_user: 'fake-user', llm_judge: 'fake-user' }));
    const settled = async () => {
      let run = await api.run(run_id);
      for (const deadline = Date.now() + 60_000; (run.status === 'running' || run.counts.done < run.counts.total) && Date.now() < deadline; run = await api.run(run_id)) await new Promise((r) => setTimeout(r, 250));
      return run;
    };
    expect(await settled()).toMatchObject({ status: 'completed', counts: { infra_error: 1 } });
    down = false;
    expect(await api.rerunInfraErrors(run_id)).toMatchObject({ rerun: 1 });
    expect(await settled()).toMatchObject({ status: 'completed', counts: { total: 1, passed: 1, infra_error: 0 } });
  });
});

describe('an A2A agent behind a key', () => {
  it('gets the run’s sealed headers on every call, and the key is nowhere in the run’s results', async () => {
    const api = apiClient(worker.url, OPERATOR_KEY);
    const secret = 'Bearer agent-secret-never-shown-4242';
    const agent = await startSdkAgent({ style: 'task', authorization: secret, brain: knowing(await goldActions('mock', 'create_task_1')) });
    agents.push(agent);
    const { run_id } = await api.createRun(
      RunConfigSchema.parse({ domain: 'mock', task_ids: ['create_task_1'], agent: 'a2a', agent_endpoint: { url: agent.url, headers: { authorization: secret } }, llm_user: 'fake-user', llm_judge: 'fake-user' }),
    );
    let run = await api.run(run_id);
    for (const deadline = Date.now() + 60_000; run.status === 'running' && Date.now() < deadline; run = await api.run(run_id)) await new Promise((r) => setTimeout(r, 250));
    expect(run).toMatchObject({ status: 'completed', counts: { passed: 1 } });
    expect(run.config.agent_endpoint).toEqual({ url: agent.url });
    const results = await (await fetch(`${worker.url}/v1/runs/${run_id}/results`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } })).text();
    expect(results).not.toContain('agent-secret-never-shown');
  });
});

describe('an assessment over A2A', () => {
  it('an A2A client asks tau2-edge (an A2A agent) to evaluate an A2A agent: the task completes with reward 1.0 in its metrics', async () => {
    const agent = await startSdkAgent({ style: 'message', brain: knowing(await goldActions('mock', 'create_task_1')) });
    agents.push(agent);
    const fetchImpl: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      request.headers.set('authorization', `Bearer ${OPERATOR_KEY}`);
      return fetch(request);
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) }),
    );
    const tau2 = await factory.createFromUrl(worker.url);
    const evaluation = { domain: 'mock', task_ids: ['create_task_1'], num_trials: 2, agent: 'a2a', agent_endpoint: { url: agent.url }, llm_user: 'fake-user', llm_judge: 'fake-user' };
    const sent = await tau2.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: evaluation }] } }));
    expect('status' in sent).toBe(true);
    let task = sent as Task;
    for (const deadline = Date.now() + 60_000; task.status?.state === TaskState.TASK_STATE_WORKING && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 250));
      task = await tau2.getTask(GetTaskRequest.fromJSON({ id: task.id }));
    }
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const metrics = task.artifacts.find((a) => a.artifactId === 'metrics')!.parts[0]!.content as { value: { metrics: Record<string, number>; counts: { passed: number } } };
    expect(metrics.value.metrics['avg_reward']).toBe(1);
    expect(metrics.value.counts.passed).toBe(2);
  });
});
