// An episode's MCP endpoint driven by the official MCP TypeScript SDK's client alone, on the real local worker
// (workerd, D1, Durable Objects) with the simulated user on a scripted OpenAI-compatible server: the client
// connects with the episode's own token, lists the tools, calls them and speaks to the user, and plays mock
// create_task_1 and airline task 15 (its gold actions) to reward 1.0. A client that accepts only an event stream is answered over SSE; the token opens
// nothing once the episode is over, and it is never kept in the clear.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isUserSimulator, startFakeOpenAI, text } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { stopAll } from '../support/viewer-runs.ts';
import { startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { EpisodeCreatedSchema, EpisodeSchema } from '../../src/api/index.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { FINAL as TOLD_DONE, goldActions } from '../support/a2a-brains.ts';

const OPERATOR_KEY = 'mcp-sdk-operator-key';
const FINAL = 'Your task Important Meeting has been created.';

let fake: FakeOpenAI;
let worker: LocalWorker;
let dir: string;

/** The user of create_task_1: asks for the task, and stops once the agent has spoken to it. */
const user = () =>
  fake.setHandler((request) => {
    if (!isUserSimulator(request)) return text('ok');
    const spoken = (request.body as { messages: { role: string }[] }).messages.some((m) => m.role === 'assistant');
    return text(spoken ? 'Thanks, that is all. ###STOP###' : "Hi! Please create a task called 'Important Meeting' for user_1.");
  });

const api = async (route: string, init: { body?: unknown } = {}): Promise<Response> =>
  fetch(`${worker.url}${route}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

const createEpisode = async (domain = 'mock', task_id = 'create_task_1') => {
  const response = await api('/v1/episodes', { body: { domain, task_id, llm_user: 'fake-user' } });
  expect(response.status).toBe(201);
  return EpisodeCreatedSchema.parse(parsePyJson(await response.text()));
};

/** An SDK client connected to `url` with `token`; `accept` replaces the Accept header the SDK sends. */
const connect = async (url: string, token: string, accept?: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    ...(accept === undefined
      ? {}
      : {
          fetch: (input: string | URL | Request, init?: RequestInit) => {
            const headers = new Headers(init?.headers);
            headers.set('accept', accept);
            return fetch(input, { ...init, headers });
          },
        }),
  });
  const client = new Client({ name: 'tau2-edge-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
};

/** Every file under `root`, read whole. */
const filesUnder = async (root: string): Promise<Buffer[]> => {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name))));
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-mcp-'));
  fake = await startFakeOpenAI();
  user();
  worker = await startLocalWorker({ persistTo: path.join(dir, 'state'), logFile: path.join(dir, 'worker.log'), env: { OPENAI_BASE_URL: fake.baseURL, API_KEY: OPERATOR_KEY } });
}, 180_000);

afterAll(() => stopAll({ worker, fake, dir }));

describe('an episode served over MCP to the official SDK client', () => {
  it('plays mock create_task_1 to reward 1.0 with the episode token alone', async () => {
    const created = await createEpisode();
    const { url, token } = created.mcp!;
    expect(url).toBe(`${worker.url}/v1/episodes/${created.episode_id}/mcp`);
    const { client, transport } = await connect(url, token);
    // The SDK's newest revision is served, and the server's instructions are the agent's policy.
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()?.name).toBe('tau2-edge');
    expect(client.getInstructions()).toBe(created.observation.policy);

    // The domain's tools as the agent is given them, and the tool to speak to the user.
    const { tools } = await client.listTools();
    const given = (created.observation.tools as { function: { name: string; description: string; parameters: unknown } }[]).map(({ function: f }) => ({
      name: f.name,
      description: f.description,
      inputSchema: f.parameters,
    }));
    expect(tools.slice(0, -1)).toEqual(given);
    expect(tools.at(-1)).toMatchObject({ name: 'send_message_to_user', inputSchema: { required: ['message'] } });

    // A failing tool is a result with isError, and a step of the episode as any call.
    const failed = (await client.callTool({ name: 'create_task', arguments: { user_id: 'user_404', title: 'Important Meeting' } })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: 'text', text: expect.stringContaining('user_404') }]);
    expect(failed._meta).toMatchObject({ episode_id: created.episode_id, step: created.step + 1, done: false, reward: null });

    const made = (await client.callTool({ name: 'create_task', arguments: { user_id: 'user_1', title: 'Important Meeting' } })) as CallToolResult;
    expect(made.isError).toBe(false);
    expect(JSON.parse((made.content[0] as { text: string }).text)).toMatchObject({ title: 'Important Meeting', status: 'pending' });
    expect(made._meta).toMatchObject({ step: created.step + 2, done: false });

    // The user's reply is the result; it stops, and the episode ends graded.
    const told = (await client.callTool({ name: 'send_message_to_user', arguments: { message: FINAL } })) as CallToolResult;
    expect(told.content).toEqual([{ type: 'text', text: 'Thanks, that is all. ###STOP###' }]);
    expect(told._meta).toMatchObject({ done: true, reward: 1, termination_reason: 'user_stop', reward_info: { reward: 1 } });

    // Over: the token opens nothing any more.
    await expect(client.listTools()).rejects.toThrow(/401|over/);
    await client.close();

    const episode = EpisodeSchema.parse(await (await api(`/v1/episodes/${created.episode_id}`)).json());
    expect(episode).toMatchObject({ status: 'done', done: true, reward_info: { reward: 1 } });
    const calls = episode.messages.flatMap((m) => ((m as { tool_calls?: { name: string }[] }).tool_calls ?? []).map((c) => c.name));
    expect(calls).toEqual(['create_task', 'create_task']);
    expect(episode.messages.at(-2)).toMatchObject({ role: 'assistant', content: FINAL });

    // Only the token's hash is kept: neither the local D1 files nor the worker's log hold it.
    const kept = await filesUnder(dir);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((bytes) => bytes.includes(token))).toHaveLength(0);
  });

  it('plays airline task 15 to reward 1.0: its gold actions as tool calls, then a word to the user', async () => {
    const created = await createEpisode('airline', '15');
    const { client } = await connect(created.mcp!.url, created.mcp!.token);
    const gold = await goldActions('airline', '15');
    expect(gold.length).toBeGreaterThan(0);
    for (const action of gold) {
      const result = (await client.callTool({ name: action.name, arguments: action.arguments })) as CallToolResult;
      expect(result.isError, `${action.name}: ${JSON.stringify(result.content)}`).toBe(false);
    }
    const told = (await client.callTool({ name: 'send_message_to_user', arguments: { message: TOLD_DONE } })) as CallToolResult;
    expect(told._meta).toMatchObject({ done: true, reward: 1, termination_reason: 'user_stop' });
    await client.close();
    const episode = EpisodeSchema.parse(await (await api(`/v1/episodes/${created.episode_id}`)).json());
    const calls = episode.messages.flatMap((m) => ((m as { tool_calls?: { name: string }[] }).tool_calls ?? []).map((c) => c.name));
    expect(calls).toEqual(gold.map((a) => a.name));
  });

  it('answers a client that accepts only an event stream with SSE events', async () => {
    const created = await createEpisode();
    const { client } = await connect(created.mcp!.url, created.mcp!.token, 'text/event-stream');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('send_message_to_user');
    // The same request as above, read raw: an SSE event carrying the JSON-RPC response.
    const raw = await fetch(created.mcp!.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.mcp!.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const event = /^event: message\ndata: (.+)\n\n$/.exec(await raw.text());
    expect(JSON.parse(event![1]!)).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    await client.close();
  });
});
