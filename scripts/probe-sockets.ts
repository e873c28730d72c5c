// Probe checks of OpenEnv sockets, run by scripts/probe.ts against its local worker (the limits below): sizes in
// UTF-8 bytes, duplicate keys, the queue behind a slow message, and the cap on a tenant's open sockets.
import { MAX_EPISODE_TEXT } from '../src/api/index.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import type { ProbeContext } from './probe-hardening.ts';

interface Received {
  readonly type: string;
  readonly data: { code?: string; message?: string } & Record<string, unknown>;
}

/** A socket of /openenv/ws and its answers in order, or `refused` when the upgrade is refused. */
const openSocket = (base: string, key: string): Promise<{ ws: WebSocket; next: () => Promise<Received> } | { refused: true }> => {
  // Node's WebSocket takes headers as undici's extension of the standard constructor.
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/openenv/ws`, { headers: { authorization: `Bearer ${key}` } } as unknown as string[]);
  const inbox: Received[] = [];
  const waiting: ((m: Received) => void)[] = [];
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Received;
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const next = (): Promise<Received> => (inbox.length > 0 ? Promise.resolve(inbox.shift()!) : new Promise((resolve) => waiting.push(resolve)));
  return new Promise((resolve) => {
    ws.addEventListener('open', () => resolve({ ws, next }), { once: true });
    ws.addEventListener('error', () => resolve({ refused: true }), { once: true });
  });
};

/** The limits the probe's worker runs with (probe.ts sets them as its vars), small enough to reach. */
export const SOCKET_PROBE_LIMITS = { LIMIT_MAX_BODY_BYTES: 1_048_576, LIMIT_MAX_SOCKET_QUEUE: 8, LIMIT_MAX_SOCKETS_PER_TENANT: 16 } as const;

const RESET = { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' };

export const probeSockets = async ({ harness, base, operatorKey, send, check }: ProbeContext): Promise<void> => {
  const opened = await openSocket(base, operatorKey);
  if ('refused' in opened) return check(false, 'an OpenEnv socket opens');
  const { ws, next } = opened;
  const ask = (text: string): Promise<Received> => (ws.send(text), next());

  const pad = '€'.repeat(Math.ceil(SOCKET_PROBE_LIMITS.LIMIT_MAX_BODY_BYTES / 3) + 10);
  const big = await ask(JSON.stringify({ type: 'reset', data: { ...RESET, llm_user: pad } }));
  check(big.data.code === 'VALIDATION_ERROR' && (big.data.message ?? '').includes('LIMIT_MAX_BODY_BYTES'), 'a socket message over LIMIT_MAX_BODY_BYTES in UTF-8 bytes (fewer characters) → refused naming the limit', big.data.message);

  const reset = await ask(JSON.stringify({ type: 'reset', data: RESET }));
  const over = '€'.repeat(Math.floor(MAX_EPISODE_TEXT / 3) + 1);
  const text = await ask(JSON.stringify({ type: 'step', data: { message: { role: 'assistant', content: over } } }));
  check(reset.type === 'observation' && text.data.code === 'VALIDATION_ERROR', `a step's content over ${MAX_EPISODE_TEXT} UTF-8 bytes (fewer characters) → VALIDATION_ERROR`, `${text.type} ${text.data.code}`);

  const duplicate = await ask('{"type": "close", "type": "state"}');
  check(duplicate.data.code === 'VALIDATION_ERROR' && JSON.stringify(duplicate.data).includes('Duplicate key'), 'a socket message giving a key twice → VALIDATION_ERROR, as HTTP refuses it', JSON.stringify(duplicate.data));

  // Behind a step that waits for the (slow) simulated user, the queue takes LIMIT_MAX_SOCKET_QUEUE messages in all.
  harness.fake.setHandler(mockConversation({ delayMs: 1_500 }));
  const sent = SOCKET_PROBE_LIMITS.LIMIT_MAX_SOCKET_QUEUE + 8;
  ws.send(JSON.stringify({ type: 'step', data: { message: { role: 'assistant', content: 'Let me look.' } } }));
  for (let i = 1; i < sent; i++) ws.send('{"type": "state"}');
  const replies: Received[] = [];
  for (let i = 0; i < sent; i++) replies.push(await next());
  harness.fake.setHandler(mockConversation());
  const full = replies.filter((m) => m.data.code === 'CAPACITY_REACHED').length;
  check(full === sent - SOCKET_PROBE_LIMITS.LIMIT_MAX_SOCKET_QUEUE, `${sent} messages at once behind a slow one → ${sent - SOCKET_PROBE_LIMITS.LIMIT_MAX_SOCKET_QUEUE} answered CAPACITY_REACHED`, `${full}`);
  ws.close(1000);

  // A tenant's open sockets are capped; another tenant's are not affected.
  const key = (JSON.parse((await send('POST', '/v1/admin/keys', { key: operatorKey, body: { tenant: 'probe-sockets', name: 'sockets' } })).text) as { key: string }).key;
  const cap = SOCKET_PROBE_LIMITS.LIMIT_MAX_SOCKETS_PER_TENANT;
  const sockets = await Promise.all(Array.from({ length: cap + 1 }, () => openSocket(base, key)));
  const open = sockets.filter((s) => !('refused' in s)).length;
  const other = await openSocket(base, operatorKey);
  check(open === cap && !('refused' in other), `${cap + 1} sockets at once on one tenant → ${cap} open, another tenant's still opens`, `${open}`);
  for (const s of [...sockets, other]) if (!('refused' in s)) s.ws.close(1000);
};
