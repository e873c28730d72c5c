// OpenEnv's MCP access to a session's episode: JSON-RPC `{"type": "mcp"}` messages (tools/list, tools/call,
// openenv/session/*, and each JSON-RPC error OpenEnv answers), and the list_tools / call_tool step actions of
// OpenEnv's MCPToolClient, on mock create_task_1 played to reward 1.0.
import { describe, expect, it } from 'vitest';
import { EpisodeSchema } from '../../src/api/index.ts';
import { OpenEnvStateSchema } from '../../src/api/openenv.ts';
import type { OpenEnvObservation } from '../../src/api/openenv.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import { call, pyBody, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS } from './support/script.ts';
import { connect, errorData, observation, RESET } from './support/openenv.ts';
import type { Client } from './support/openenv.ts';

interface RpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data: unknown };
}

/** Sends a JSON-RPC request (the data of an mcp message) and reads the JSON-RPC response. */
const rpc = async (client: Client, data: unknown): Promise<RpcResponse> => {
  const m = await client.ask({ type: 'mcp', data });
  expect(m.type, JSON.stringify(m.data)).toBe('mcp');
  const response = m.data as unknown as RpcResponse;
  // Exactly one of result and error, with jsonrpc and id always.
  expect(Object.keys(response).sort()).toEqual(['id', 'jsonrpc', response.error === undefined ? 'result' : 'error'].sort());
  return response;
};
const request = (method: string, params?: Record<string, unknown>, id: string | number = 1) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

const stepCount = async (client: Client): Promise<number> => OpenEnvStateSchema.parse((await client.ask({ type: 'state' })).data).step_count;

const GOLD = { user_id: 'user_1', title: 'Important Meeting' };
const FINAL = { message: { role: 'assistant', content: 'Your task Important Meeting has been created.' } };

describe('OpenEnv MCP messages', () => {
  it('tools/list names the agent tools with their schemas; tools/call create_task, then the episode ends at reward 1.0', async () => {
    const client = await connect();
    const reset = observation(await client.ask({ type: 'reset', data: RESET })).observation;
    const listed = await rpc(client, request('tools/list', {}, 'list-1'));
    expect(listed.id).toBe('list-1');
    const tools = listed.result!.tools as { name: string; description: string; inputSchema: Record<string, unknown> }[];
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_task', 'get_users', 'update_task_status']));
    // The episode's own tool definitions, in MCP's shape.
    expect(tools).toEqual(
      (reset.tools as { function: { name: string; description: string; parameters: unknown } }[]).map(({ function: f }) => ({ name: f.name, description: f.description, inputSchema: f.parameters })),
    );
    expect(tools.find((t) => t.name === 'create_task')!.inputSchema).toMatchObject({ type: 'object', required: ['user_id', 'title'], properties: { user_id: { type: 'string' } } });
    expect(await stepCount(client)).toBe(0);

    const created = await rpc(client, request('tools/call', { name: 'create_task', arguments: GOLD }, 7));
    expect(created.id).toBe(7);
    const result = created.result as { content: { type: string; text: string }[]; isError: boolean; _meta: Record<string, unknown> };
    expect(result.content).toHaveLength(1);
    expect(result.content[0]!.type).toBe('text');
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ title: 'Important Meeting', status: 'pending' });
    expect(result.isError).toBe(false);
    expect(result._meta).toEqual({ episode_id: reset.episode_id, step: 1, done: false, reward: null, termination_reason: null });
    // The session's step advanced as after a step: the next step answers turn 1.
    expect(await stepCount(client)).toBe(1);

    const last = observation(await client.ask({ type: 'step', data: FINAL }));
    expect(last).toMatchObject({ reward: 1, done: true, observation: { step: 2, termination_reason: 'user_stop' } });
    // Done: a further call is refused as a step is (409), as a JSON-RPC server error naming the status.
    const refused = await rpc(client, request('tools/call', { name: 'get_users' }, 8));
    expect(refused).toMatchObject({ id: 8, error: { code: -32000, data: { status: 409, reason: 'conflict' } } });
    expect(refused.error!.message).toMatch(/^The episode is done/);
    client.close();

    // The tool call is in the episode's simulation like any agent's.
    const episode = EpisodeSchema.parse(await pyBody(await call(`/v1/episodes/${reset.episode_id}`)));
    expect(episode).toMatchObject({ status: 'done', step: 2 });
    expect((await waitForRun(episode.run_id)).counts).toMatchObject({ done: 1, passed: 1 });
  });

  it("a tool call the episode records as failed is isError with the tool's text; openenv/session/* as on a WebSocket session", async () => {
    const client = await connect();
    observation(await client.ask({ type: 'reset', data: RESET }));
    const failed = (await rpc(client, request('tools/call', { name: 'create_task', arguments: { user_id: 'nobody', title: 'x' } }))).result as { content: { text: string }[]; isError: boolean; _meta: { step: number } };
    expect(failed.isError).toBe(true);
    expect(failed.content[0]!.text).toMatch(/not found/);
    expect(failed._meta.step).toBe(1);
    // A tool that succeeds after it: isError is the call's own.
    expect(((await rpc(client, request('tools/call', { name: 'get_users' }))).result as { isError: boolean }).isError).toBe(false);

    const created = await rpc(client, request('openenv/session/create'));
    const sessionId = (created.result as { session_id: string }).session_id;
    expect(sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect((await rpc(client, request('openenv/session/create'))).result).toEqual({ session_id: sessionId });
    expect(await rpc(client, request('openenv/session/close', { session_id: sessionId }))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'Cannot close active WebSocket-managed session via MCP method', data: null },
    });
    expect((await rpc(client, request('openenv/session/close'))).error).toEqual({ code: -32602, message: "Invalid params - 'session_id' is required", data: null });
    expect((await rpc(client, request('openenv/session/close', { session_id: 'other' }))).error).toMatchObject({ code: -32602, message: 'Unknown session_id: other' });
    expect(await stepCount(client)).toBe(2);
    client.close();
  });

  it('a tools/call that ends the episode (max_errors) says so in _meta, with its reward', async () => {
    const client = await connect();
    observation(await client.ask({ type: 'reset', data: { ...RESET, max_errors: 2 } }));
    const calls: { content: { text: string }[]; isError: boolean; _meta: Record<string, unknown> }[] = [];
    for (let n = 0; n < 5 && calls.at(-1)?._meta.done !== true; n++) calls.push((await rpc(client, request('tools/call', { name: 'no_such_tool' }, n))).result as (typeof calls)[number]);
    const last = calls.at(-1)!;
    expect(calls.every((c) => c.isError && /no_such_tool/.test(c.content[0]!.text))).toBe(true);
    expect(last._meta).toMatchObject({ done: true, reward: 0, termination_reason: 'too_many_errors', reward_info: { reward: 0 } });
    expect(OpenEnvStateSchema.parse((await client.ask({ type: 'state' })).data)).toMatchObject({ done: true, step_count: calls.length });
    client.close();
  });

  it("a session that plays the user lists and calls the user's tools", async () => {
    const client = await connect();
    observation(await client.ask({ type: 'reset', data: { domain: 'mock', task_id: 'create_task_1', role: 'user', llm_agent: SCRIPT_MODELS.agent } }));
    const tools = (await rpc(client, request('tools/list'))).result!.tools as { name: string }[];
    expect(tools.map((t) => t.name)).toEqual(['check_notifications', 'dismiss_notification']);
    const checked = (await rpc(client, request('tools/call', { name: 'check_notifications', arguments: {} }))).result as { content: { text: string }[]; isError: boolean };
    expect(checked).toMatchObject({ isError: false });
    expect(checked.content[0]!.text).toContain('notif_1');
    const dismissed = (await rpc(client, request('tools/call', { name: 'dismiss_notification', arguments: { notification_id: 'nope' } }))).result as { content: { text: string }[]; isError: boolean };
    expect(dismissed.isError).toBe(true);
    expect(dismissed.content[0]!.text).toBe('Error: Notification nope not found');
    client.close();
  });

  it('answers each JSON-RPC error as OpenEnv does, changing nothing', async () => {
    const client = await connect();
    // The message itself must be OpenEnv's WSMCPMessage.
    expect(errorData(await client.ask({ type: 'mcp' }))).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(errorData(await client.ask({ type: 'mcp', data: [] }))).toMatchObject({ code: 'VALIDATION_ERROR' });
    // Not a JsonRpcRequest: INVALID_REQUEST, with no id.
    for (const data of [{ method: 'tools/list', id: 1 }, { jsonrpc: '1.0', method: 'tools/list', id: 1 }, { jsonrpc: '2.0', method: 'tools/list', params: [1], id: 1 }, { jsonrpc: '2.0', method: 'tools/list', id: 1, extra: true }, { jsonrpc: '2.0', method: 'tools/list', id: [1] }]) {
      const response = await rpc(client, data);
      expect(response, JSON.stringify(data)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: null } });
      expect(response.error!.message).toMatch(/^Invalid request: /);
    }
    expect((await rpc(client, { jsonrpc: '2.0', method: 'tools/list', params: 'x' })).error!.message).toMatch(/^Invalid request: params: /);
    // Before a reset there are no tools: the domain is the reset's.
    for (const method of ['tools/list', 'tools/call']) {
      expect(await rpc(client, request(method, { name: 'get_users' }, 'early'))).toEqual({
        jsonrpc: '2.0',
        id: 'early',
        error: { code: -32000, message: 'No episode in this session: send a reset first', data: { status: 409, reason: 'conflict' } },
      });
    }
    expect((await rpc(client, request('resources/list'))).error).toEqual({ code: -32601, message: 'Method not found: resources/list', data: null });

    observation(await client.ask({ type: 'reset', data: RESET }));
    expect((await rpc(client, request('tools/call', { arguments: {} }))).error).toEqual({ code: -32602, message: "Missing 'name' in params", data: null });
    const badArguments = (await rpc(client, request('tools/call', { name: 'get_users', arguments: 'all' }))).error!;
    expect(badArguments).toMatchObject({ code: -32602, data: { status: 400, reason: 'invalid_request', errors: [{ path: 'arguments' }] } });
    // A call's arguments are held to a message's bounds.
    const huge = (await rpc(client, request('tools/call', { name: 'create_task', arguments: { user_id: 'user_1', title: 'x'.repeat(70_000) } }))).error!;
    expect(huge).toMatchObject({ code: -32602, data: { status: 400, errors: [{ path: 'message.tool_calls.0.function.arguments' }] } });
    // A notification-style request (no id) is answered with id null; ids are read as pydantic reads `str | int`.
    expect((await rpc(client, { jsonrpc: '2.0', method: 'nope' })).id).toBeNull();
    expect((await rpc(client, { jsonrpc: '2.0', method: 'nope', id: true })).id).toBe(1);
    const floatId = await client.ask('{"type": "mcp", "data": {"jsonrpc": "2.0", "method": "nope", "id": 2.0}}');
    expect(floatId.data).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(await stepCount(client)).toBe(0);
    client.close();
  });

  it('a refused tools/call (its turn already answered with another message) is a server error; the session stays', async () => {
    const client = await connect();
    const { episode_id } = observation(await client.ask({ type: 'reset', data: RESET })).observation;
    // Turn 0 is answered over HTTP, behind the session's back.
    expect((await call('/openenv/step', { body: { episode_id, action: { action: 'get_users()', step: 0 } } })).status).toBe(200);
    const refused = await rpc(client, request('tools/call', { name: 'create_task', arguments: GOLD }));
    expect(refused.error).toEqual({ code: -32000, message: 'Step 0 was already answered with another message', data: { status: 409, reason: 'conflict' } });
    expect(await stepCount(client)).toBe(0);
    client.close();
  });
});

describe("OpenEnv MCPToolClient's step actions", () => {
  it('list_tools answers the tools without a step; call_tool steps the episode; a retried call_tool answers the same', async () => {
    const client = await connect();
    expect(errorData(await client.ask({ type: 'step', data: { type: 'list_tools' } }))).toMatchObject({ code: 'EXECUTION_ERROR', status: 409 });
    const reset = observation(await client.ask({ type: 'reset', data: RESET })).observation;
    const listed = observation(await client.ask({ type: 'step', data: { type: 'list_tools' } }));
    expect(listed).toMatchObject({ reward: null, done: false, observation: { episode_id: reset.episode_id, step: 0, messages: [] } });
    const tools = listed.observation.tools as { name: string; description: string; input_schema: unknown }[];
    expect(tools.map((t) => t.name)).toEqual((reset.tools as { function: { name: string } }[]).map((t) => t.function.name));
    expect(tools.find((t) => t.name === 'create_task')).toMatchObject({ description: 'Create a new task for a user.', input_schema: { required: ['user_id', 'title'] } });
    expect(await stepCount(client)).toBe(0);

    const users = observation(await client.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'get_users', arguments: {} } }));
    expect(users).toMatchObject({ reward: null, done: false, observation: { step: 1, tool_name: 'get_users', error: null, termination_reason: null } });
    expect(users.observation.messages).toEqual([expect.objectContaining({ role: 'tool', tool_call_id: 'call_0', content: users.observation.result })]);
    expect(JSON.parse(users.observation.result!)).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: 'user_1' })]));
    // No `tools` key: OpenEnv's client reads an observation with one as a ListToolsObservation.
    expect(users.observation).not.toHaveProperty('tools');
    // Retried with its step number, a call answers the same; another call for that step is a conflict.
    expect(observation(await client.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'get_users', step: 0 } }))).toEqual(users);
    expect(errorData(await client.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'create_task', arguments: GOLD, step: 0 } }))).toMatchObject({ code: 'EXECUTION_ERROR', status: 409 });
    expect(errorData(await client.ask({ type: 'step', data: { type: 'call_tool', arguments: {} } })).errors?.[0]).toMatchObject({ path: 'tool_name' });

    const created = observation(await client.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'create_task', arguments: GOLD } }));
    expect(created.observation).toMatchObject({ step: 2, tool_name: 'create_task', error: null });
    expect(JSON.parse(created.observation.result!)).toMatchObject({ title: 'Important Meeting' });
    expect(observation(await client.ask({ type: 'step', data: FINAL }))).toMatchObject({ reward: 1, done: true });
    client.close();
  });

  it('the stateless POST /openenv/step takes list_tools and call_tool; /openenv/schema names them', async () => {
    const opening = (await pyBody(await call('/openenv/reset', { body: RESET }))) as { observation: OpenEnvObservation };
    const step = async (action: unknown) => (await pyBody(await call('/openenv/step', { body: { episode_id: opening.observation.episode_id, action } }))) as { observation: OpenEnvObservation; reward: unknown; done: boolean };
    expect((await step({ type: 'list_tools' })).observation.tools?.map((t) => t.name)).toContain('create_task');
    const created = await step({ type: 'call_tool', tool_name: 'create_task', arguments: GOLD });
    expect(created.observation).toMatchObject({ step: 1, tool_name: 'create_task', error: null });
    expect(await step({ message: FINAL.message, step: 1 })).toMatchObject({ reward: pyFloat(1), done: true });

    const schema = (await (await call('/openenv/schema', { anonymous: true })).json()) as { action: { anyOf: { properties: Record<string, { const?: string }> }[] } };
    expect(schema.action.anyOf.map((a) => a.properties.type?.const).filter(Boolean)).toEqual(['list_tools', 'call_tool']);
  });
});
