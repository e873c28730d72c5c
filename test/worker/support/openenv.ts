// An OpenEnv session from the tests: a client socket on the Worker's /openenv/ws, the reset of mock
// create_task_1, and the reading of the server's observation and error messages.
import { exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { OpenEnvErrorDataSchema, OpenEnvObservationSchema } from '../../../src/api/openenv.ts';
import type { OpenEnvErrorData, OpenEnvObservation } from '../../../src/api/openenv.ts';
import { BASE } from './api.ts';
import { API_KEY, SCRIPT_MODELS } from './script.ts';

export interface Received {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** A client socket: messages sent, answers read in order, and how it was closed. */
export const connect = async (key = API_KEY) => {
  const response = await exports.default.fetch(`${BASE}/openenv/ws`, { headers: { upgrade: 'websocket', authorization: `Bearer ${key}` } });
  if (response.status !== 101) throw new Error(`no session: ${response.status} ${await response.text()}`);
  const ws = response.webSocket!;
  ws.accept();
  const inbox: Received[] = [];
  const waiting: ((m: Received) => void)[] = [];
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(event.data as string) as Received;
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.addEventListener('close', (event) => resolve({ code: event.code })));
  const next = (): Promise<Received> => (inbox.length > 0 ? Promise.resolve(inbox.shift()!) : new Promise((resolve) => waiting.push(resolve)));
  const send = (message: unknown): void => ws.send(typeof message === 'string' || message instanceof ArrayBuffer ? message : JSON.stringify(message));
  return {
    send,
    next,
    closed,
    ask: async (message: unknown): Promise<Received> => (send(message), next()),
    close: () => ws.close(1000),
  };
};
export type Client = Awaited<ReturnType<typeof connect>>;

export const RESET = { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user };

export const observation = (m: Received): { observation: OpenEnvObservation; reward: unknown; done: boolean } => {
  expect(m.type, JSON.stringify(m.data)).toBe('observation');
  return { observation: OpenEnvObservationSchema.parse(m.data.observation), reward: m.data.reward, done: m.data.done as boolean };
};
export const errorData = (m: Received): OpenEnvErrorData => {
  expect(m.type).toBe('error');
  return OpenEnvErrorDataSchema.parse(m.data);
};
