// An episode's MCP endpoint (POST /v1/episodes/:id/mcp) at the wire, in workerd: who it opens to (the tenant's key,
// the episode's own token, nobody else), how it answers JSON-RPC messages, and the token kept only hashed in D1.
// The official SDK client plays a whole task in test/client/mcp-sdk.test.ts.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/api/index.ts';
import type { EpisodeCreated } from '../../src/api/index.ts';
import { sha256Text } from '../../src/worker/crypto.ts';
import { PROTOCOL_VERSIONS } from '../../src/api/mcp.ts';
import { call } from './support/api.ts';
import { createEpisode } from './support/episodes.ts';
import { SCRIPT_MODELS } from './support/script.ts';

const create = (body: Record<string, unknown> = {}): Promise<EpisodeCreated> => createEpisode({ llm_user: SCRIPT_MODELS.user, ...body });

/** Posts one JSON-RPC message to the episode's endpoint with `key` (the operator's API key by default). */
const post = (id: string, message: unknown, options: { key?: string; headers?: Record<string, string> } = {}): Promise<Response> =>
  call(`/v1/episodes/${id}/mcp`, { body: message, headers: { accept: 'application/json, text/event-stream', ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }), ...options.headers } });

const rpc = (method: string, params?: Record<string, unknown>, id: string | number = 1) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

interface RpcAnswer {
  readonly id: string | number | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}
const answer = async (response: Response): Promise<RpcAnswer> => {
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as RpcAnswer;
};

const errorOf = async (response: Response) => ApiErrorSchema.parse(await response.json()).error;

const tenantKey = async (tenant: string): Promise<string> => ((await (await call('/v1/admin/keys', { body: { tenant, name: tenant } })).json()) as { key: string }).key;

describe('who an episode MCP endpoint opens to', () => {
  it('the episode token opens its own episode only; another episode is 401, and so is any other route', async () => {
    const [one, two] = [await create(), await create()];
    expect(one.mcp!.token).not.toBe(two.mcp!.token);
    const listed = await answer(await post(one.episode_id, rpc('tools/list'), { key: one.mcp!.token }));
    expect((listed.result!.tools as { name: string }[]).map((t) => t.name)).toContain('create_task');

    const crossed = await post(two.episode_id, rpc('tools/list'), { key: one.mcp!.token });
    expect(crossed.status).toBe(401);
    expect((await errorOf(crossed)).message).toBe(`This episode token does not open episode ${two.episode_id}`);
    expect((await post(one.episode_id, rpc('tools/list'), { key: 'tau2ep_not-a-token' })).status).toBe(401);
    // Not an API key: the episode's other routes do not take it.
    expect((await call(`/v1/episodes/${one.episode_id}`, { headers: { authorization: `Bearer ${one.mcp!.token}` } })).status).toBe(401);
  });

  it("another tenant's episode is 404 with its key; the tenant's own key opens its episode", async () => {
    const episode = await create();
    const other = await tenantKey('mcp-other');
    const foreign = await post(episode.episode_id, rpc('tools/list'), { key: other });
    expect(foreign.status).toBe(404);
    const own = await call('/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user }, headers: { authorization: `Bearer ${other}` } });
    const created = (await own.json()) as EpisodeCreated;
    expect((await answer(await post(created.episode_id, rpc('ping'), { key: other }))).result).toEqual({});
    // The operator is a tenant of its own here, as on every episode route.
    expect((await post(created.episode_id, rpc('ping'))).status).toBe(404);
  });

  it('the token is returned once and kept only as its hash', async () => {
    const episode = await create();
    const { token } = episode.mcp!;
    expect(token).toMatch(/^tau2ep_[A-Za-z0-9_-]{43}$/);
    const rows = (await env.DB.prepare('SELECT * FROM episode_tokens WHERE episode_id = ?').bind(episode.episode_id).all()).results;
    expect(rows).toEqual([{ token_hash: await sha256Text(token), tenant_id: 'operator', episode_id: episode.episode_id, created_at: expect.any(String) }]);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await (await call(`/v1/episodes/${episode.episode_id}`)).text()).not.toContain(token);
  });

  it('the token no longer opens the episode once it is over; the API key still reads it', async () => {
    const episode = await create();
    const { token } = episode.mcp!;
    const stop = await answer(await post(episode.episode_id, rpc('tools/call', { name: 'send_message_to_user', arguments: { message: 'Goodbye. ###STOP###' } }), { key: token }));
    expect(stop.result!._meta).toMatchObject({ done: true });
    const after = await post(episode.episode_id, rpc('tools/list'), { key: token });
    expect(after.status).toBe(401);
    expect((await errorOf(after)).message).toBe(`Episode ${episode.episode_id} is over: its token no longer opens it`);
    const listed = await answer(await post(episode.episode_id, rpc('tools/list')));
    expect(listed.error).toMatchObject({ code: -32000, data: { status: 409, reason: 'conflict' } });
  });

  it('an episode where the caller plays the user has no token and no MCP server', async () => {
    const episode = await create({ role: 'user', llm_agent: SCRIPT_MODELS.agent, llm_user: undefined });
    expect(episode.mcp).toBeUndefined();
    const refused = await post(episode.episode_id, rpc('tools/list'));
    expect(refused.status).toBe(409);
  });
});

describe('the JSON-RPC messages of an episode MCP endpoint', () => {
  it('initialize offers the asked revision when served, else the newest; a notification is accepted with 202', async () => {
    const episode = await create();
    const init = (version: string) => post(episode.episode_id, rpc('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    const asked = await answer(await init('2025-06-18'));
    expect(asked.result).toMatchObject({ protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'tau2-edge' } });
    expect(asked.result!.instructions).toBe(episode.observation.policy);
    expect((await answer(await init('1999-01-01'))).result!.protocolVersion).toBe(PROTOCOL_VERSIONS[0]);
    const note = await post(episode.episode_id, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
  });

  it('refuses a revision it does not serve, a malformed message (naming the field), an unknown method and a call without a name', async () => {
    const episode = await create();
    const old = await post(episode.episode_id, rpc('ping'), { headers: { 'mcp-protocol-version': '2024-11-05' } });
    expect(old.status).toBe(400);
    expect((await errorOf(old)).message).toContain('mcp-protocol-version: 2024-11-05 is not served');
    const malformed = await post(episode.episode_id, { id: 1, method: 'ping' });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).issues?.map((i) => i.path)).toEqual(['jsonrpc']);
    const batch = await post(episode.episode_id, [rpc('ping')]);
    expect(batch.status).toBe(400);
    expect((await answer(await post(episode.episode_id, rpc('resources/list')))).error).toMatchObject({ code: -32601, message: 'Method not found: resources/list' });
    expect((await answer(await post(episode.episode_id, rpc('tools/call', { arguments: {} })))).error).toMatchObject({ code: -32602 });
    const badMessage = await answer(await post(episode.episode_id, rpc('tools/call', { name: 'send_message_to_user', arguments: { text: 'hi' } })));
    expect(badMessage.error).toMatchObject({ code: -32602, data: { errors: [{ path: 'arguments.message' }] } });
  });

  it('in solo mode there is no user to speak to: no send_message_to_user, and calling it is an unknown tool', async () => {
    const episode = await createEpisode({ solo: true });
    const tools = ((await answer(await post(episode.episode_id, rpc('tools/list')))).result!.tools as { name: string }[]).map((t) => t.name);
    expect(tools).toContain('done');
    expect(tools).not.toContain('send_message_to_user');
    const called = await answer(await post(episode.episode_id, rpc('tools/call', { name: 'send_message_to_user', arguments: { message: 'hi' } })));
    expect(called.result).toMatchObject({ isError: true, _meta: { step: 1 } });
  });

  it('a body over LIMIT_MAX_BODY_BYTES is 413 and plays nothing', async () => {
    const episode = await create();
    const huge = await post(episode.episode_id, rpc('tools/call', { name: 'send_message_to_user', arguments: { message: 'x'.repeat(2_000_000) } }));
    expect(huge.status).toBe(413);
    expect((await errorOf(huge)).code).toBe('payload_too_large');
    expect(((await (await call(`/v1/episodes/${episode.episode_id}`)).json()) as { step: number }).step).toBe(0);
  });

  it('a tool call is one step: the tool message, isError for a failing tool, and where the episode stands in _meta', async () => {
    const episode = await create();
    const failed = await answer(await post(episode.episode_id, rpc('tools/call', { name: 'no_such_tool', arguments: {} })));
    expect(failed.result).toMatchObject({ isError: true, _meta: { episode_id: episode.episode_id, step: 1, done: false, reward: null } });
    const made = await answer(await post(episode.episode_id, rpc('tools/call', { name: 'create_task', arguments: { user_id: 'user_1', title: 'Important Meeting' } })));
    expect(made.result).toMatchObject({ isError: false, _meta: { step: 2, done: false } });
    const steps = ((await (await call(`/v1/episodes/${episode.episode_id}`)).json()) as { step: number }).step;
    expect(steps).toBe(2);
  });

  it('a call naming its step in _meta is played once: sent again, it is answered again; another call for that step is refused', async () => {
    const episode = await create();
    const create_task = (title: string) => rpc('tools/call', { name: 'create_task', arguments: { user_id: 'user_1', title }, _meta: { step: 0 } });
    const first = await answer(await post(episode.episode_id, create_task('Important Meeting')));
    const again = await answer(await post(episode.episode_id, create_task('Important Meeting')));
    expect(again.result).toEqual(first.result);
    expect(first.result!._meta).toMatchObject({ step: 1 });
    const other = await answer(await post(episode.episode_id, create_task('Another Meeting')));
    expect(other.error).toMatchObject({ code: -32000, message: 'Step 0 was already answered with another message', data: { status: 409 } });
    const bad = await answer(await post(episode.episode_id, rpc('tools/call', { name: 'get_users', _meta: { step: 'one' } })));
    expect(bad.error).toMatchObject({ code: -32602, message: 'params._meta.step: a step number (a non-negative integer)' });
    expect(((await (await call(`/v1/episodes/${episode.episode_id}`)).json()) as { step: number }).step).toBe(1);
  });

  it("banking_knowledge: the retrieval configuration's tools, as the agent is given them, answer over MCP", async () => {
    const episode = await createEpisode({ domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user, retrieval_config: 'bm25' });
    const listed = await answer(await post(episode.episode_id, rpc('tools/list')));
    const tools = listed.result!.tools as { name: string; description: string; inputSchema: unknown }[];
    const given = (episode.observation.tools as { function: { name: string; description: string; parameters: unknown } }[]).map(({ function: f }) => ({ name: f.name, description: f.description, inputSchema: f.parameters }));
    expect(tools.slice(0, -1)).toEqual(given);
    const search = given.find((t) => t.name.startsWith('KB_search'));
    expect(search).toBeDefined();
    const found = await answer(await post(episode.episode_id, rpc('tools/call', { name: search!.name, arguments: { query: 'change my email address' } })));
    expect(found.result).toMatchObject({ isError: false, _meta: { step: 1, done: false } });
    expect((found.result!.content as { text: string }[])[0]!.text.length).toBeGreaterThan(0);
  });
});
