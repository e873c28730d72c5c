// tau2-edge as an A2A agent, driven by the official A2A client (@a2a-js/sdk): its card validates against the
// protocol's schema and lists the domains as skills; a message with an evaluation request starts a run whose
// task follows it to the results and metrics; bad requests are refused naming the field, and create nothing.
import { exports } from 'cloudflare:workers';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { CancelTaskRequest, GetTaskRequest, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyCreatedSchema, RunListSchema } from '../../src/api/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { domains } from '../../domains/registry.ts';
import { a2aSchemaErrors } from '../support/a2a-schema.ts';
import { BASE, call, getRun, pyBody } from './support/api.ts';
import { API_KEY, SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const fetchAs =
  (key: string): typeof fetch =>
  (input, init) => {
    const request = new Request(input, init);
    request.headers.set('authorization', `Bearer ${key}`);
    return exports.default.fetch(request);
  };

const clientAs = (key: string): Promise<Client> => {
  const fetchImpl = fetchAs(key);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(BASE);
};

let messages = 0;
/** SendMessage's params as JSON: a user message whose parts are by default the evaluation request as data. */
const evaluation = (data: unknown, parts: object[] = [{ data, mediaType: 'application/json' }]) => ({
  message: { messageId: `a2a-test-${++messages}-${Date.now()}`, role: 'ROLE_USER', parts },
});
const send = async (client: Client, params: object): Promise<Task> => {
  const sent = await client.sendMessage(SendMessageRequest.fromJSON(params));
  if (!('status' in sent)) throw new Error('SendMessage answered a message, not a task');
  return sent;
};
const getTask = (client: Client, id: string) => client.getTask(GetTaskRequest.fromJSON({ id }));

/** The raw JSON-RPC answer to one request (for what the SDK client would not send). */
const rpc = async (method: string, params: unknown, headers: Record<string, string> = {}) =>
  (await call('/v1/a2a', { body: { jsonrpc: '2.0', id: 7, method, params }, headers })).json() as Promise<{ result?: unknown; error?: { code: number; message: string } }>;

const runCount = async (): Promise<number> => RunListSchema.parse(await pyBody(await call('/v1/runs?limit=200'))).runs.length;

const followed = async (client: Client, id: string): Promise<Task[]> => {
  const seen: Task[] = [];
  for (const deadline = Date.now() + 45_000; Date.now() < deadline; ) {
    const task = await getTask(client, id);
    seen.push(task);
    if (task.status?.state !== TaskState.TASK_STATE_WORKING) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Task ${id} still working`);
};

let operator: Client;
beforeAll(async () => {
  operator = await clientAs(API_KEY);
});

describe('the agent card', () => {
  it('validates against the A2A 1.0 schema, needs no key, lists every domain as a skill and names the JSON-RPC endpoint', async () => {
    const response = await call('/.well-known/agent-card.json', { anonymous: true });
    expect(response.status).toBe(200);
    const card = (await response.json()) as { skills: { id: string }[]; supportedInterfaces: unknown[] };
    expect(a2aSchemaErrors('Agent Card', card)).toEqual([]);
    expect(card.skills.map((s) => s.id)).toEqual(Object.keys(domains));
    expect(card.supportedInterfaces).toEqual([{ url: `${BASE}/v1/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
  });

  it('the schema check fails a card that breaks the protocol (a misspelt field, a missing required one)', () => {
    expect(a2aSchemaErrors('Agent Card', { name: 'x', description: 'y', version: '1', skills: [], supportedInterface: [] })).not.toEqual([]);
  });
});

describe('an evaluation over A2A', () => {
  it('a message with an evaluation request starts a run; its task follows the run to the results and metrics', async () => {
    const body = scriptedRun({ num_trials: 1, num_tasks: 3 });
    const task = await send(operator, evaluation(body));
    expect([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]).toContain(task.status?.state);
    const seen = await followed(operator, task.id);
    const done = seen.at(-1)!;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.contextId).toBe(task.id);

    const run = await getRun(task.id);
    expect(run.status).toBe('completed');
    expect(run.config).toMatchObject({ domain: 'mock', num_tasks: 3, llm_agent: SCRIPT_MODELS.agent });
    const metrics = done.artifacts.find((a) => a.artifactId === 'metrics')!;
    expect(metrics.parts[0]!.content).toMatchObject({ $case: 'data' });
    const summary = (metrics.parts[0]!.content as { value: { metrics: Record<string, number>; counts: unknown } }).value;
    expect(summary.metrics['avg_reward']).toBeCloseTo(run.metrics['avg_reward']!);
    expect(summary.counts).toEqual(run.counts);
    const results = done.artifacts.find((a) => a.artifactId === 'results')!;
    const text = (results.parts[0]!.content as { value: string }).value;
    expect(text).toBe(await (await call(`/v1/runs/${task.id}/results?messages=false`)).text());
    expect(results.parts[1]!.content).toEqual({ $case: 'url', value: `${BASE}/v1/runs/${task.id}/results` });
    expect(ResultsSchema.parse(parsePyJson(text)).simulations).toHaveLength(3);
  });

  it('a retried message (same messageId) answers the run it started, not a second one', async () => {
    const request = evaluation(scriptedRun({ num_tasks: 1 }));
    const first = await send(operator, request);
    const before = await runCount();
    const again = await send(operator, request);
    expect(again.id).toBe(first.id);
    expect(await runCount()).toBe(before);
  });

  it('a bad evaluation request is refused naming the field, and starts no run', async () => {
    const before = await runCount();
    const bad = await rpc('SendMessage', evaluation(scriptedRun({ num_trials: 0 })));
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('params.message.parts[0].data.num_trials');
    const wordsOnly = await rpc('SendMessage', evaluation(null, [{ text: 'evaluate my agent please' }]));
    expect(wordsOnly.error?.code).toBe(-32602);
    expect(wordsOnly.error?.message).toContain('params.message.parts');
    const noMessage = await rpc('SendMessage', {});
    expect(noMessage.error?.message).toContain('params.message');
    await expect(send(operator, evaluation({ ...scriptedRun(), domain: 'nowhere' }))).rejects.toThrow(/domain/);
    expect(await runCount()).toBe(before);
  });

  it('another tenant’s task is not found; without a key the endpoint answers 401', async () => {
    const created = await call('/v1/admin/keys', { body: { tenant: 'a2a-other', name: 'A2A' } });
    const other = await clientAs(ApiKeyCreatedSchema.parse(await pyBody(created)).key);
    const mine = await send(operator, evaluation(scriptedRun({ num_tasks: 1 })));
    await expect(getTask(other, mine.id)).rejects.toThrow(/not found/i);
    expect((await call('/v1/a2a', { anonymous: true, body: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: mine.id } } })).status).toBe(401);
  });

  it('CancelTask stops a running evaluation; a finished one cannot be cancelled', async () => {
    const slow = await send(operator, evaluation(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, num_tasks: 2 })));
    const cancelled = await operator.cancelTask(CancelTaskRequest.fromJSON({ id: slow.id }));
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await getRun(slow.id)).status).toBe('cancelled');
    const again = await rpc('CancelTask', { id: slow.id });
    expect(again.error).toBeUndefined();
  });

  it('answers JSON-RPC errors for what it does not offer: unknown methods, streaming, another protocol version, bad JSON', async () => {
    expect((await rpc('Nonsense', {})).error?.code).toBe(-32601);
    expect((await rpc('SendStreamingMessage', evaluation(scriptedRun()))).error?.code).toBe(-32004);
    expect((await rpc('GetTask', { id: 'x' }, { 'A2A-Version': '0.3' })).error?.code).toBe(-32009);
    const garbled = await (await call('/v1/a2a', { body: '{"jsonrpc": "2.0", ' })).json();
    expect(garbled).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const notRpc = await (await call('/v1/a2a', { body: { id: 3, method: 'GetTask' } })).json();
    expect(notRpc).toMatchObject({ id: 3, error: { code: -32600 } });
  });
});

describe('a run of the a2a agent', () => {
  it('is refused naming the field, creating nothing: without its agent_endpoint, with rounds, as a schedule', async () => {
    const before = await runCount();
    const a2a = { ...scriptedRun({ task_ids: ['create_task_1'] }), agent: 'a2a' };
    const cases: [unknown, string, string][] = [
      [a2a, '/v1/runs', 'agent_endpoint'],
      [{ ...a2a, agent_endpoint: { url: 'ftp://127.0.0.1/agent' } }, '/v1/runs', 'agent_endpoint.url'],
      [{ ...a2a, agent_endpoint: { url: 'http://127.0.0.1:9/' }, target_ci_width: 0.2 }, '/v1/runs', 'target_ci_width'],
      [{ name: 'nightly a2a', interval_minutes: 60, run: { ...a2a, agent_endpoint: { url: 'http://127.0.0.1:9/' } } }, '/v1/schedules', 'run.agent'],
    ];
    for (const [body, path, field] of cases) {
      const response = await call(path, { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { error } = (await response.json()) as { error: { issues: { path: string }[] } };
      expect(error.issues.map((i) => i.path)).toContain(field);
    }
    expect(await runCount()).toBe(before);
    const schedules = (await (await call('/v1/schedules')).json()) as { schedules: { name: string }[] };
    expect(schedules.schedules.map((s) => s.name)).not.toContain('nightly a2a');
  });
});
