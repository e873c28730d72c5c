// OpenEnv sockets are bounded as HTTP requests are: sizes in UTF-8 bytes (the body limit and the episode text
// limit), one JSON rule (each key once), a bounded queue of messages per socket, and a cap on a tenant's open
// sockets. The tests' limits (vitest.config.ts): 32 sockets per tenant, 8 queued messages of at most 65,536 bytes.
import { env, exports } from 'cloudflare:workers';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ApiKeyCreatedSchema, MAX_EPISODE_TEXT } from '../../src/api/index.ts';
import { LIMIT_DEFAULTS } from '../../src/worker/tenancy/limits.ts';
import type { ProviderGateDO } from '../../src/worker/runs/provider-gate.ts';
import { BASE, call, pyBody } from './support/api.ts';
import { SCRIPT_MODELS } from './support/script.ts';
import { connect, errorData, observation, RESET } from './support/openenv.ts';
import type { Received } from './support/openenv.ts';

const SOCKETS_PER_TENANT = 32;
const QUEUE = 8;
const QUEUE_BYTES = 65_536;

const tenantKey = async (tenant: string): Promise<string> => ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant, name: tenant } }))).key;

const upgrade = (key: string): Promise<Response> => exports.default.fetch(`${BASE}/openenv/ws`, { headers: { upgrade: 'websocket', authorization: `Bearer ${key}` } });

/** A session playing the user against the agent that answers after 400 ms: its step is slow enough to queue behind. */
const slowSession = async () => {
  const client = await connect();
  observation(await client.ask({ type: 'reset', data: { domain: 'mock', task_id: 'create_task_1', role: 'user', llm_agent: SCRIPT_MODELS.slowAgent } }));
  return client;
};

describe('OpenEnv socket bounds', () => {
  it('counts a message in UTF-8 bytes against LIMIT_MAX_BODY_BYTES, as HTTP does (413)', async () => {
    // 3-byte characters: fewer characters than the limit's bytes, more bytes.
    const pad = '€'.repeat(Math.ceil(LIMIT_DEFAULTS.LIMIT_MAX_BODY_BYTES / 3) + 10);
    expect(pad.length).toBeLessThan(LIMIT_DEFAULTS.LIMIT_MAX_BODY_BYTES);
    const text = JSON.stringify({ type: 'reset', data: { ...RESET, llm_user: pad } });
    const http = await call('/openenv/reset', { body: JSON.parse(text).data });
    expect(http.status).toBe(413);
    const client = await connect();
    const refused = errorData(await client.ask(text));
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refused.message).toContain('LIMIT_MAX_BODY_BYTES');
    expect((await client.ask({ type: 'state' })).data).toMatchObject({ episode_id: null });
    client.close();
  });

  it('counts an episode text in UTF-8 bytes against MAX_EPISODE_TEXT, over the socket and over HTTP', async () => {
    const over = '€'.repeat(Math.floor(MAX_EPISODE_TEXT / 3) + 1);
    expect(over.length).toBeLessThan(MAX_EPISODE_TEXT);
    const client = await connect();
    const { episode_id } = observation(await client.ask({ type: 'reset', data: RESET })).observation;
    for (const data of [{ action: over }, { message: { role: 'assistant', content: over } }]) {
      const refused = errorData(await client.ask({ type: 'step', data }));
      expect(refused.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(refused.errors)).toContain(`<=${MAX_EPISODE_TEXT} bytes of UTF-8`);
    }
    const http = await call(`/v1/episodes/${episode_id}/step`, { body: { step: 0, message: { role: 'assistant', content: over } } });
    expect(http.status).toBe(400);
    expect(JSON.stringify(await pyBody(http))).toContain('message.content');
    // Within the bytes, the same characters step.
    const within = '€'.repeat(Math.floor(MAX_EPISODE_TEXT / 3));
    expect(observation(await client.ask({ type: 'step', data: { message: { role: 'assistant', content: within } } })).observation.step).toBe(1);
    client.close();
  });

  it('refuses a key given twice, as HTTP does, and the session goes on', async () => {
    const client = await connect();
    const refused = errorData(await client.ask('{"type": "close", "type": "state"}'));
    expect(refused).toEqual({ code: 'VALIDATION_ERROR', message: 'Invalid message', errors: [{ path: 'type', message: 'Duplicate key: give each key once' }] });
    const nested = errorData(await client.ask('{"type": "reset", "data": {"domain": "mock", "domain": "airline"}}'));
    expect(nested.errors).toEqual([{ path: 'data.domain', message: 'Duplicate key: give each key once' }]);
    const http = await call('/openenv/reset', { body: '{"domain": "mock", "domain": "airline", "task_id": "create_task_1"}' });
    expect(http.status).toBe(400);
    expect((await client.ask({ type: 'state' })).type).toBe('state');
    client.close();
  });

  it(`queues at most ${QUEUE} messages behind a slow one, answering the rest CAPACITY_REACHED at once`, async () => {
    const client = await slowSession();
    client.send({ type: 'step', data: { action: 'Hi, please create a task called Important Meeting for user_1.' } });
    for (let i = 0; i < QUEUE + 2; i++) client.send({ type: 'state' });
    const replies: Received[] = [];
    for (let i = 0; i < QUEUE + 3; i++) replies.push(await client.next());
    // The three past the bound are answered first, while the step still waits for the agent.
    for (const refused of replies.slice(0, 3)) expect(errorData(refused)).toMatchObject({ code: 'CAPACITY_REACHED' });
    expect(errorData(replies[0]!).message).toContain('LIMIT_MAX_SOCKET_QUEUE');
    expect(observation(replies[3]!).observation.step).toBeGreaterThan(0);
    expect(replies.slice(4).map((m) => m.type)).toEqual(Array(QUEUE - 1).fill('state'));
    // The queue drained: the next message is taken again.
    expect((await client.ask({ type: 'state' })).type).toBe('state');
    client.close();
  });

  it(`queues at most ${QUEUE_BYTES} bytes behind a slow one`, async () => {
    const client = await slowSession();
    client.send({ type: 'step', data: { action: 'Hi, please create a task called Important Meeting for user_1.' } });
    // 3 × 30,000 bytes: the third passes the byte bound.
    const big = JSON.stringify({ type: 'state', pad: 'x'.repeat(30_000) });
    for (let i = 0; i < 3; i++) client.send(big);
    const first = await client.next();
    expect(errorData(first)).toMatchObject({ code: 'CAPACITY_REACHED' });
    expect(errorData(first).message).toContain('LIMIT_MAX_SOCKET_QUEUE_BYTES');
    observation(await client.next());
    // The two taken are read as any message (their extra field is refused).
    for (let i = 0; i < 2; i++) expect(errorData(await client.next())).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Invalid message' });
    client.close();
  });

  it(`keeps at most ${SOCKETS_PER_TENANT} sockets open per tenant: another gets 429 until one closes`, async () => {
    const key = await tenantKey('oe-sockets');
    const clients = await Promise.all(Array.from({ length: SOCKETS_PER_TENANT }, () => connect(key)));
    const refused = await upgrade(key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toContain('LIMIT_MAX_SOCKETS_PER_TENANT');
    // Another tenant is not affected.
    const other = await connect();
    other.close();
    // A socket the client closes, and one the server closes on the client's `close` message, each free a place.
    for (const leaving of [clients[0]!, clients[1]!]) {
      if (leaving === clients[0]) leaving.close();
      else leaving.send({ type: 'close' });
      await leaving.closed;
      let reopened: Response | null = null;
      for (let n = 0; n < 50 && reopened?.status !== 101; n++) {
        reopened = await upgrade(key);
        if (reopened.status !== 101) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(reopened?.status).toBe(101);
      reopened!.webSocket!.accept();
      expect((await upgrade(key)).status).toBe(429);
    }
    for (const client of clients.slice(2)) client.close();
  });

  it("an open socket's alarm renews its place; one whose place lapsed and was taken is closed (1013)", async () => {
    const tenant = 'oe-sockets-renewed';
    const client = await connect(await tenantKey(tenant));
    const sessionId = ((await client.ask({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'openenv/session/create' } })).data.result as { session_id: string }).session_id;
    const session = env.OPENENV_SESSION.get(env.OPENENV_SESSION.idFromString(sessionId));
    const gate = env.PROVIDER_GATE.getByName(`openenv-sockets/${tenant}`);
    const expiresAt = () =>
      runInDurableObject(gate, (_gate: ProviderGateDO, state) => state.storage.sql.exec<{ expires_at: number }>('SELECT expires_at FROM leases WHERE holder = ?', sessionId).toArray()[0]?.expires_at ?? null);
    const before = await expiresAt();
    expect(before).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await runDurableObjectAlarm(session)).toBe(true);
    expect(await expiresAt()).toBeGreaterThan(before!);
    // The lease lapsed (as when the alarm could not run) and other sockets took every place: the socket goes.
    await gate.release(sessionId);
    for (let i = 0; i < SOCKETS_PER_TENANT; i++) expect(await gate.acquire(`other-${i}`, SOCKETS_PER_TENANT)).toBe(true);
    expect(await runDurableObjectAlarm(session)).toBe(true);
    expect((await client.closed).code).toBe(1013);
  });
});
