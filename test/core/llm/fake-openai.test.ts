// The scripted OpenAI-compatible test server itself: FIFO queue, routed queues, handler, capture, errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forModel, httpError, mockConversation, startFakeOpenAI, systemPromptStartsWith, text, toolCall, withFaults } from '../../support/fake-openai.ts';
import type { FakeOpenAI } from '../../support/fake-openai.ts';

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await fake.close();
});

const post = async (body: unknown, path = '/chat/completions') => {
  const res = await fetch(`${fake.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

const chat = (system: string, model = 'm') => ({ model, messages: [{ role: 'system', content: system }] });
const contentOf = (json: Record<string, unknown>) =>
  (json['choices'] as Array<{ message: { content: string | null } }>)[0]?.message.content;

describe('fake OpenAI server', () => {
  it('answers queued replies first-in first-out and captures each request', async () => {
    fake.enqueue(text('one'), text('two'));
    const a = await post(chat('s'));
    const b = await post(chat('s'));
    expect([contentOf(a.json), contentOf(b.json)]).toEqual(['one', 'two']);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]?.body).toEqual(chat('s'));
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer k');
    expect(fake.pending()).toBe(0);
  });

  it('an unscripted request gets HTTP 500 with a message saying so', async () => {
    const res = await post(chat('s'));
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.json)).toContain('no scripted reply for request #1');
  });

  it('routes replies by a predicate so agent and user are scripted independently', async () => {
    const agent = systemPromptStartsWith('<instructions>');
    const user = systemPromptStartsWith('# User Simulation Guidelines');
    fake.enqueueFor(user, text('user 1'), text('user 2'));
    fake.enqueueFor(agent, text('agent 1'));
    const order = [
      await post(chat('# User Simulation Guidelines\n…')),
      await post(chat('<instructions>\n…')),
      await post(chat('# User Simulation Guidelines\n…')),
    ];
    expect(order.map((r) => contentOf(r.json))).toEqual(['user 1', 'agent 1', 'user 2']);
  });

  it('routed queues take precedence, then the shared queue, then the handler', async () => {
    fake.enqueueFor(forModel('judge'), text('judged'));
    fake.enqueue(text('shared'));
    fake.setHandler(() => text('handled'));
    const replies = [await post(chat('s')), await post(chat('s', 'judge')), await post(chat('s', 'judge'))];
    expect(replies.map((r) => contentOf(r.json))).toEqual(['shared', 'judged', 'handled']);
  });

  it('tool-call replies carry the raw arguments text, and usage and model are configurable', async () => {
    fake.enqueue(toolCall('calc', '{"x": 2.0}', 'call_1', { usage: { prompt_tokens: 7, completion_tokens: 3 }, model: 'snap-1' }));
    const { json } = await post(chat('s'));
    const message = (json['choices'] as Array<{ message: { tool_calls: Array<{ id: string; function: { arguments: string } }> } }>)[0]?.message;
    expect(message?.tool_calls[0]).toEqual({ id: 'call_1', type: 'function', function: { name: 'calc', arguments: '{"x": 2.0}' } });
    expect(json['usage']).toEqual({ prompt_tokens: 7, completion_tokens: 3 });
    expect(json['model']).toBe('snap-1');
  });

  it('error replies use the given status and an OpenAI-style error body', async () => {
    fake.enqueue(httpError(429, 'slow down'));
    const res = await post(chat('s'));
    expect(res.status).toBe(429);
    expect(res.json).toEqual({ error: { message: 'slow down', type: 'fake_error', code: 429 } });
  });

  it('other paths are 404', async () => {
    const res = await post({}, '/responses');
    expect(res.status).toBe(404);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('fake OpenAI server: mock conversations and injected faults', () => {
  it('plays the same short mock conversation: user asks, agent calls get_users then answers, user stops', async () => {
    fake.setHandler(mockConversation());
    const user = '# User Simulation Guidelines\n…';
    const agent = '<instructions>\n…';
    const replies = [
      await post({ model: 'm', messages: [{ role: 'system', content: user }, { role: 'user', content: 'Hi!' }] }),
      await post({ model: 'm', messages: [{ role: 'system', content: agent }, { role: 'user', content: 'list users' }] }),
      await post({ model: 'm', messages: [{ role: 'system', content: agent }, { role: 'tool', content: '[]' }] }),
      await post({ model: 'm', messages: [{ role: 'system', content: user }, { role: 'assistant', content: 'list users' }] }),
    ];
    const message = (json: Record<string, unknown>) => (json['choices'] as Array<{ message: { content: string | null; tool_calls?: Array<{ function: { name: string } }> } }>)[0]?.message;
    expect(message(replies[1]!.json)?.tool_calls?.[0]?.function.name).toBe('get_users');
    expect(contentOf(replies[3]!.json)).toContain('###STOP###');
  });

  it('faults a seeded fraction of calls, the same calls for the same seed whatever the order', async () => {
    const bodies = Array.from({ length: 400 }, (_, i) => chat(`request ${i}`));
    const statuses = async (seed: number, order: typeof bodies) => {
      const faulty = withFaults(() => text('fine'), { seed, rate: 0.25, kinds: ['429', '500', 'garbage'] });
      fake.setHandler(faulty.handler);
      const byBody = new Map<string, number>();
      for (const body of order) byBody.set(JSON.stringify(body), (await post(body).catch(() => ({ status: -1 }))).status);
      return { byBody, stats: faulty.stats() };
    };
    const a = await statuses(1, bodies);
    const b = await statuses(1, [...bodies].reverse());
    expect([...a.byBody].sort()).toEqual([...b.byBody].sort());
    const faulted = [...a.byBody.values()].filter((s) => s !== 200).length;
    expect(faulted).toBeGreaterThan(60);
    expect(faulted).toBeLessThan(140);
    expect(a.stats.faults['429']).toBeGreaterThan(0);
    expect(a.stats.faults['500']).toBeGreaterThan(0);
    expect(a.stats.faults.hang).toBe(0);
    expect(a.stats.faults.garbage).toBeGreaterThan(0);
    expect(a.stats.requests).toBe(400);
    expect(a.stats.unretried).toBe(faulted);
  });

  it('a faulted call sent again until it succeeds is no longer counted as unretried', async () => {
    const faulty = withFaults(() => text('fine'), { seed: 3, rate: 0.5, kinds: ['500'] });
    fake.setHandler(faulty.handler);
    for (let i = 0; i < 20; i++) {
      while ((await post(chat(`r${i}`))).status !== 200);
    }
    expect(faulty.stats().faults['500']).toBeGreaterThan(0);
    expect(faulty.stats().unretried).toBe(0);
  });

  it('garbage is HTTP 200 with a body that is not a chat completion', async () => {
    fake.setHandler(withFaults(() => text('fine'), { seed: 1, rate: 1, kinds: ['garbage'] }).handler);
    const res = await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(chat('s')) });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^<html>/);
  });
});
