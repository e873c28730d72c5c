// OpenEnv sessions over WebSocket and OpenEnv's HTTP companions: the test plays mock create_task_1 over a socket
// (reset, step, state, close) to reward 1.0, sends every message type and provokes every error code, and checks
// that a session's episode is an episode like any other (its results in D1, exactly-once steps, quotas, keys).
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, ApiKeyCreatedSchema, EpisodeBatchCreatedSchema, EpisodeSchema } from '../../src/api/index.ts';
import type { ApiKeyCreated } from '../../src/api/index.ts';
import { OpenEnvStateSchema } from '../../src/api/openenv.ts';
import type { OpenEnvObservation, OpenEnvState } from '../../src/api/openenv.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import { BASE, call, pyBody, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS } from './support/script.ts';
import { connect, errorData, observation, RESET } from './support/openenv.ts';
import type { Client } from './support/openenv.ts';

const state = async (client: Client): Promise<OpenEnvState> => {
  const m = await client.ask({ type: 'state' });
  expect(m.type).toBe('state');
  return OpenEnvStateSchema.parse(m.data);
};

const createKey = async (tenant: string): Promise<ApiKeyCreated> => {
  const response = await call('/v1/admin/keys', { body: { tenant, name: `${tenant} openenv` } });
  expect(response.status).toBe(201);
  return ApiKeyCreatedSchema.parse(await pyBody(response));
};

describe('OpenEnv over WebSocket', () => {
  it('plays mock create_task_1 to reward 1.0: reset, step (message and gym action), state, close', async () => {
    const client = await connect();
    const reset = observation(await client.ask({ type: 'reset', data: RESET }));
    expect(reset).toMatchObject({ reward: null, done: false });
    expect(reset.observation.step).toBe(0);
    expect(reset.observation.messages).toEqual([
      { role: 'assistant', content: 'Hi! How can I help you today?', tool_calls: null },
      { role: 'user', content: 'Hi, please create a task called Important Meeting for user_1.' },
    ]);
    expect(reset.observation.policy).toContain('Mock Domain Policy');
    expect((reset.observation.tools ?? []).map((t) => (t as { function: { name: string } }).function.name)).toContain('create_task');
    const { episode_id } = reset.observation;
    expect(await state(client)).toMatchObject({ episode_id, step_count: 0, task_id: 'create_task_1', trial: 0, done: false });

    // The reference gym's functional call format.
    const tool = observation(await client.ask({ type: 'step', data: { action: "create_task(user_id='user_1', title='Important Meeting')" } }));
    expect(tool).toMatchObject({ reward: null, done: false });
    expect(tool.observation.messages).toEqual([expect.objectContaining({ role: 'tool', tool_call_id: 'call_0' })]);
    expect(JSON.parse(tool.observation.messages[0]!.content as string)).toMatchObject({ title: 'Important Meeting', status: 'pending' });

    // A chat-completions message, as the step API takes it.
    const last = observation(await client.ask({ type: 'step', data: { message: { role: 'assistant', content: 'Your task Important Meeting has been created.' } } }));
    expect(last).toMatchObject({ reward: 1, done: true });
    expect(last.observation).toMatchObject({ step: 2, termination_reason: 'user_stop', messages: [{ role: 'user', content: 'Thanks! ###STOP###' }] });
    expect(last.observation.reward_info).toMatchObject({ reward: 1 });
    expect(await state(client)).toMatchObject({ episode_id, step_count: 2, done: true });
    // Done: a further step is refused naming the final step, as over HTTP; that final step sent again unchanged
    // gets its end again.
    expect(errorData(await client.ask({ type: 'step', data: { action: 'anything' } }))).toEqual({
      code: 'EXECUTION_ERROR',
      status: 409,
      reason: 'conflict',
      message: 'The episode is done: its final step was 1, and only that step sent again unchanged is answered',
    });
    const repeated = observation(await client.ask({ type: 'step', data: { message: { role: 'assistant', content: 'Your task Important Meeting has been created.' }, step: 1 } }));
    expect(repeated).toMatchObject({ reward: 1, done: true, observation: { step: 2, termination_reason: 'user_stop' } });

    client.send({ type: 'close' });
    expect((await client.closed).code).toBe(1000);

    // An episode like any other: graded in D1, in its run's results.
    const episode = EpisodeSchema.parse(await pyBody(await call(`/v1/episodes/${episode_id}`)));
    expect(episode).toMatchObject({ status: 'done', step: 2, termination_reason: 'user_stop' });
    expect((await waitForRun(episode.run_id)).counts).toMatchObject({ done: 1, passed: 1 });
  });

  it('a JSON tool call action applies; a new reset starts a new episode; a reset by episode_id joins one', async () => {
    const client = await connect();
    const first = observation(await client.ask({ type: 'reset', data: RESET })).observation.episode_id;
    const tool = observation(await client.ask({ type: 'step', data: { action: JSON.stringify({ name: 'get_users', arguments: {} }) } }));
    expect(tool.observation.messages[0]).toMatchObject({ role: 'tool', tool_call_id: 'call_0' });

    const second = observation(await client.ask({ type: 'reset', data: { ...RESET, seed: 7 } }));
    expect(second.observation.episode_id).not.toBe(first);
    expect(await state(client)).toMatchObject({ episode_id: second.observation.episode_id, step_count: 0 });

    // Back to the first: the whole conversation so far, and the step it waits for.
    const joined = observation(await client.ask({ type: 'reset', data: { episode_id: first } }));
    expect(joined.observation).toMatchObject({ episode_id: first, step: 1 });
    expect(joined.observation.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'tool']);
    client.close();
  });

  it('messages sent without waiting are answered in order, each step applied once', async () => {
    const client = await connect();
    observation(await client.ask({ type: 'reset', data: RESET }));
    client.send({ type: 'step', data: { action: 'get_users()' } });
    client.send({ type: 'step', data: { action: 'get_users()' } });
    client.send({ type: 'state' });
    expect(observation(await client.next()).observation.step).toBe(1);
    expect(observation(await client.next()).observation.step).toBe(2);
    expect(await state({ ...client, ask: () => client.next() })).toMatchObject({ step_count: 2 });
    client.close();
  });

  it('answers every OpenEnv error code, changing nothing', async () => {
    const client = await connect();
    expect(errorData(await client.ask('{not json'))).toMatchObject({ code: 'INVALID_JSON' });
    expect(errorData(await client.ask({ type: 'jump' }))).toMatchObject({ code: 'UNKNOWN_TYPE', message: 'Unknown message type: jump' });
    expect(errorData(await client.ask({ data: {} }))).toMatchObject({ code: 'UNKNOWN_TYPE' });
    // Like OpenEnv's messages, ours take no other fields.
    expect(errorData(await client.ask({ type: 'state', extra: 1 }))).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Invalid message' });
    expect(errorData(await client.ask({ type: 'step' }))).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(errorData(await client.ask({ type: 'step', data: { action: 'get_users()' } }))).toMatchObject({ code: 'EXECUTION_ERROR', message: 'No episode in this session: send a reset first' });

    const unknownDomain = errorData(await client.ask({ type: 'reset', data: { ...RESET, domain: 'nowhere' } }));
    expect(unknownDomain).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, reason: 'invalid_request' });
    expect(unknownDomain.errors?.[0]).toMatchObject({ path: 'domain' });
    expect(errorData(await client.ask({ type: 'reset', data: { ...RESET, max_steps: 'many' } })).errors?.[0]).toMatchObject({ path: 'max_steps' });
    expect(errorData(await client.ask({ type: 'reset', data: { episode_id: 'bm9wZQ' } }))).toMatchObject({ code: 'FACTORY_ERROR', status: 404 });
    expect(await state(client)).toMatchObject({ episode_id: null, step_count: 0 });

    observation(await client.ask({ type: 'reset', data: RESET }));
    const empty = errorData(await client.ask({ type: 'step', data: { action: '   ' } }));
    expect(empty).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ path: 'action', message: 'Invalid action with error: Action cannot be empty' }] });
    expect(errorData(await client.ask({ type: 'step', data: { action: 'get_users(user_id=)', step: 0 } })).errors?.[0]?.message).toMatch(/^Invalid action with error: /);
    expect(errorData(await client.ask({ type: 'step', data: { message: { role: 'assistant', content: 'x', mood: 'sad' } } })).errors?.[0]?.path).toBe('message');
    // A step not waited for is the step API's 409.
    expect(errorData(await client.ask({ type: 'step', data: { action: 'hello', step: 5 } }))).toMatchObject({ code: 'EXECUTION_ERROR', status: 409, reason: 'conflict' });
    expect(errorData(await client.ask(new Uint8Array([1, 2]).buffer))).toMatchObject({ code: 'INVALID_JSON' });
    // Nothing above moved the episode: its first step applies now.
    expect(observation(await client.ask({ type: 'step', data: { action: 'get_users()' } })).observation.step).toBe(1);
    // Retried with its step number, a step answers the same; another message for it is a conflict.
    const again = observation(await client.ask({ type: 'step', data: { action: 'get_users()', step: 0 } }));
    expect(again.observation.messages[0]).toMatchObject({ role: 'tool', tool_call_id: 'call_0' });
    expect(errorData(await client.ask({ type: 'step', data: { action: 'something else', step: 0 } }))).toMatchObject({ code: 'EXECUTION_ERROR', status: 409, message: 'Step 0 was already answered with another message' });
    client.close();
  });

  it('a tenant over its quota gets CAPACITY_REACHED and no episode', async () => {
    const key = await createKey('oe-quota');
    expect((await call('/v1/admin/tenants/oe-quota/quotas', { method: 'PUT', body: { episodes_per_day: 1 } })).status).toBe(200);
    const client = await connect(key.key);
    observation(await client.ask({ type: 'reset', data: RESET }));
    expect(errorData(await client.ask({ type: 'reset', data: RESET }))).toMatchObject({ code: 'CAPACITY_REACHED', status: 429, reason: 'quota_exceeded' });
    client.close();
  });

  it('30 resets at once on 30 sockets at episodes_in_flight 10: 10 episodes, every other reset CAPACITY_REACHED', async () => {
    const key = await createKey('oe-quota-race');
    expect((await call('/v1/admin/tenants/oe-quota-race/quotas', { method: 'PUT', body: { episodes_in_flight: 10 } })).status).toBe(200);
    const clients = await Promise.all(Array.from({ length: 30 }, () => connect(key.key)));
    const replies = await Promise.all(clients.map((client) => client.ask({ type: 'reset', data: RESET })));
    const refused = replies.filter((m) => m.type === 'error' && m.data.code === 'CAPACITY_REACHED');
    expect(refused).toHaveLength(20);
    for (const m of refused) expect(errorData(m)).toMatchObject({ status: 429, reason: 'quota_exceeded' });
    const runs = (await pyBody(await call('/v1/runs', { headers: { authorization: `Bearer ${key.key}` } }))) as { runs: unknown[] };
    expect(runs.runs).toHaveLength(10);
    for (const client of clients) client.close();
  });

  it('a key revoked mid-session ends the session with SESSION_ERROR (close 1008); sessions need a valid key', async () => {
    const key = await createKey('oe-revoked');
    const client = await connect(key.key);
    observation(await client.ask({ type: 'reset', data: RESET }));
    expect((await call(`/v1/admin/keys/${key.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(errorData(await client.ask({ type: 'step', data: { action: 'get_users()' } }))).toMatchObject({ code: 'SESSION_ERROR' });
    expect((await client.closed).code).toBe(1008);

    const refused = await exports.default.fetch(`${BASE}/openenv/ws`, { headers: { upgrade: 'websocket', authorization: `Bearer ${key.key}` } });
    expect(refused.status).toBe(401);
    const anonymous = await exports.default.fetch(`${BASE}/openenv/ws`, { headers: { upgrade: 'websocket' } });
    expect(anonymous.status).toBe(401);
    expect((await call('/openenv/ws')).status).toBe(426);
  });

  it("a tenant cannot join another tenant's episode", async () => {
    const owner = await connect();
    const { episode_id } = observation(await owner.ask({ type: 'reset', data: RESET })).observation;
    const other = await connect((await createKey('oe-other')).key);
    expect(errorData(await other.ask({ type: 'reset', data: { episode_id } }))).toMatchObject({ code: 'FACTORY_ERROR', status: 404 });
    owner.close();
    other.close();
  });
});

describe('OpenEnv HTTP companions', () => {
  it('health, metadata and schema', async () => {
    expect(await (await call('/openenv/health', { anonymous: true })).json()).toEqual({ status: 'healthy' });
    expect(await (await call('/openenv/metadata', { anonymous: true })).json()).toMatchObject({ name: 'tau2-edge' });
    const schema = (await (await call('/openenv/schema', { anonymous: true })).json()) as Record<string, { properties?: Record<string, unknown>; anyOf?: { properties: Record<string, unknown> }[] }>;
    expect(schema.action!.anyOf!.map((a) => Object.keys(a.properties))).toEqual([['message', 'step'], ['action', 'step'], ['type'], ['type', 'tool_name', 'arguments', 'step']]);
    expect(Object.keys(schema.observation!.properties!)).toEqual(expect.arrayContaining(['episode_id', 'messages', 'tools', 'policy', 'reward_info']));
    expect(Object.keys(schema.state!.properties!)).toEqual(expect.arrayContaining(['episode_id', 'step_count']));
  });

  it('stateless reset and step play an episode named by its id', async () => {
    const reset = await call('/openenv/reset', { body: RESET });
    expect(reset.status).toBe(200);
    const opening = (await pyBody(reset)) as { observation: OpenEnvObservation; reward: null; done: boolean };
    expect(opening).toMatchObject({ reward: null, done: false, observation: { step: 0 } });
    const step = (action: unknown) => call('/openenv/step', { body: { episode_id: opening.observation.episode_id, action } });
    expect(((await pyBody(await step({ action: "create_task(user_id='user_1', title='Important Meeting')" }))) as { observation: OpenEnvObservation }).observation.step).toBe(1);
    const last = (await pyBody(await step({ message: { role: 'assistant', content: 'Your task Important Meeting has been created.' }, step: 1 }))) as Record<string, unknown>;
    expect(last).toMatchObject({ reward: pyFloat(1), done: true });

    const bad = await call('/openenv/step', { body: { episode_id: opening.observation.episode_id, action: { action: 'x' }, extra: true } });
    expect(bad.status).toBe(400);
    expect((await call('/openenv/reset', { body: RESET, anonymous: true })).status).toBe(401);
  });
});

describe('POST /v1/episodes/batch', () => {
  it('starts tasks × trials episodes at once, idempotent with a key; a socket joins one', async () => {
    const body = { domain: 'mock', task_ids: ['create_task_1', 'update_task_with_message_history'], num_trials: 2, llm_user: SCRIPT_MODELS.user };
    const headers = { 'Idempotency-Key': 'oe-batch-1' };
    const response = await call('/v1/episodes/batch', { body, headers });
    expect(response.status, await response.clone().text()).toBe(201);
    const batch = EpisodeBatchCreatedSchema.parse(await pyBody(response));
    expect(batch.episode_ids).toHaveLength(4);
    expect(new Set(batch.episode_ids).size).toBe(4);
    // The same request with the same key answers the same episodes; another body with it is refused.
    expect(EpisodeBatchCreatedSchema.parse(await pyBody(await call('/v1/episodes/batch', { body, headers })))).toEqual(batch);
    const reused = await call('/v1/episodes/batch', { body: { ...body, num_trials: 1 }, headers });
    expect(reused.status).toBe(422);

    const client = await connect();
    const joined = observation(await client.ask({ type: 'reset', data: { episode_id: batch.episode_ids[0] } }));
    expect(joined.observation).toMatchObject({ episode_id: batch.episode_ids[0], step: 0 });
    expect(joined.observation.tools?.length).toBeGreaterThan(0);
    client.close();
  });

  it('refuses bad data and a batch over the quota, creating nothing', async () => {
    const bad = await call('/v1/episodes/batch', { body: { domain: 'mock', task_ids: [] } });
    expect(ApiErrorSchema.parse(await bad.json()).error.issues?.[0]?.path).toBe('task_ids');
    const key = await createKey('oe-batch-quota');
    expect((await call('/v1/admin/tenants/oe-batch-quota/quotas', { method: 'PUT', body: { episodes_per_day: 3 } })).status).toBe(200);
    const over = await call('/v1/episodes/batch', { body: { domain: 'mock', task_ids: ['create_task_1'], num_trials: 4, llm_user: SCRIPT_MODELS.user }, headers: { authorization: `Bearer ${key.key}` } });
    expect(over.status).toBe(429);
    const runs = (await pyBody(await call('/v1/runs', { headers: { authorization: `Bearer ${key.key}` } }))) as { runs: unknown[] };
    expect(runs.runs).toHaveLength(0);
  });
});
