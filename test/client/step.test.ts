// The API client's step: a step the API had no answer to within its wait (503 not_ready) or no capacity for (503
// overloaded) is sent again after the Retry-After the API gave, a bounded number of times; no other failure is
// sent again.
import { describe, expect, it } from 'vitest';
import { ApiRequestError, apiClient } from '../../src/client/index.ts';

const error = (status: number, code: string, headers: Record<string, string> = {}): Response =>
  Response.json({ error: { code, message: `${code} for the test` } }, { status, headers });
const notReady = (): Response => error(503, 'not_ready', { 'retry-after': '0' });
const ANSWER = { step: 2, done: true, termination_reason: 'user_stop', observation: { messages: [] }, reward_info: { reward: 1 } };

/** A client whose API answers with `replies` in turn; `sent` holds each request body. */
const scripted = (replies: Response[]) => {
  const sent: string[] = [];
  const client = apiClient('http://api.test', 'key', {
    fetch: async (_url, init) => {
      sent.push(String(init.body));
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no reply scripted');
      return reply;
    },
  });
  return { client, sent };
};

const MESSAGE = { role: 'assistant' as const, content: 'Your task has been created.' };

describe('client.step', () => {
  it('sends the same step again while the API has no answer to it yet, then returns the answer', async () => {
    const { client, sent } = scripted([notReady(), notReady(), Response.json(ANSWER)]);
    expect(await client.step('ep', 1, MESSAGE)).toMatchObject({ step: 2, done: true, reward_info: { reward: 1 } });
    expect(sent).toHaveLength(3);
    expect(new Set(sent)).toEqual(new Set([JSON.stringify({ step: 1, message: MESSAGE })]));
  });

  it('sends the same step again after the Retry-After of a 503 overloaded (the worker at its capacity)', async () => {
    const { client, sent } = scripted([error(503, 'overloaded', { 'retry-after': '0' }), Response.json(ANSWER)]);
    expect(await client.step('ep', 1, MESSAGE)).toMatchObject({ step: 2, done: true });
    expect(sent).toEqual([JSON.stringify({ step: 1, message: MESSAGE }), JSON.stringify({ step: 1, message: MESSAGE })]);
  });

  it('gives up after three sends with the API error and its Retry-After', async () => {
    const { client, sent } = scripted([notReady(), notReady(), notReady(), Response.json(ANSWER)]);
    const failure = await client.step('ep', 1, MESSAGE).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect(failure).toMatchObject({ status: 503, code: 'not_ready', retryAfterSeconds: 0 });
    expect(sent).toHaveLength(3);
  });

  it('sends a step once when the API refuses it otherwise', async () => {
    const { client, sent } = scripted([error(409, 'conflict'), Response.json(ANSWER)]);
    await expect(client.step('ep', 1, MESSAGE)).rejects.toMatchObject({ status: 409, code: 'conflict', retryAfterSeconds: null });
    expect(sent).toHaveLength(1);
  });
});
