// The A2A client's rules against agents on 127.0.0.1: an SDK-built agent answers; a card without a usable
// interface, a JSON-RPC error, a reply that breaks the protocol, a failed task and a redirect are infrastructure
// errors naming what was wrong; a transport failure is retried; a task is followed until it asks for input, and
// given up after the idle limit.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectA2aAgent } from '../../../src/core/a2a/agent-client.ts';
import { startSdkAgent } from '../../support/a2a-agents.ts';
import type { Briefing } from '../../support/a2a-agents.ts';

type Handler = (request: { method: string; url: string; body: Record<string, unknown> | null }, response: ServerResponse) => void;

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const bodyOf = async (request: IncomingMessage): Promise<Record<string, unknown> | null> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? null : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
};

/** A scripted agent on 127.0.0.1: `handle` answers each request. */
const scripted = async (handle: Handler): Promise<string> => {
  const server = createServer((request, response) => {
    void bodyOf(request).then((body) => handle({ method: request.method!, url: request.url!, body }, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const json = (response: ServerResponse, body: unknown, status = 200) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const card = (url: string) => ({ name: 'x', supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] });

/** An agent whose card is fine and whose JSON-RPC endpoint answers with `rpc`. */
const agentAnswering = (rpc: (body: Record<string, unknown>, response: ServerResponse) => void) => {
  let base = '';
  return scripted(({ url, body }, response) => (url === '/.well-known/agent-card.json' ? json(response, card(base)) : rpc(body!, response))).then((u) => (base = u));
};

const fast = { sleep: async () => {}, pollMs: 1 };
const hello = { text: 'hello' };
const reply = (body: Record<string, unknown>, result: unknown) => ({ jsonrpc: '2.0', id: body['id'], result });
const taskOf = (state: string, text?: string) => ({ id: 't1', contextId: 'c1', status: { state, ...(text ? { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text }] } } : {}) } });

describe('the A2A client', () => {
  it('talks to an SDK-built agent: one context per conversation, its reply text back', async () => {
    const contexts: string[] = [];
    const agent = await startSdkAgent({ style: 'message', brain: async ({ text }) => `echo: ${text}`, connect: false });
    servers.push(agent);
    const connected = await connectA2aAgent(agent.url);
    const conversation = connected.conversation();
    const briefing: Briefing = { episode_id: 'e', mcp: { url: 'http://127.0.0.1:1/mcp', token: 't' }, policy: 'p' };
    expect(await conversation.send({ text: 'one', data: { ...briefing } })).toBe('echo: one');
    expect(await conversation.send({ text: 'two' })).toBe('echo: two');
    contexts.push(...agent.contexts);
    expect(new Set(contexts).size).toBe(1);
  });

  it('refuses a card with no JSON-RPC interface, naming what it found', async () => {
    const url = await scripted((_r, response) => json(response, { name: 'x', supportedInterfaces: [{ url: 'http://127.0.0.1:1', protocolBinding: 'GRPC', protocolVersion: '1.0' }] }));
    await expect(connectA2aAgent(url, fast)).rejects.toThrow(/no JSONRPC interface .*GRPC 1\.0/);
    const bare = await scripted((_r, response) => json(response, { name: 'x' }));
    await expect(connectA2aAgent(bare, fast)).rejects.toThrow(/neither supportedInterfaces/);
  });

  it('never follows a redirect, not even to the card', async () => {
    const url = await scripted((_r, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest' });
      response.end();
    });
    await expect(connectA2aAgent(url, fast)).rejects.toThrow(/302 redirect refused \(Location http:\/\/169\.254\.169\.254\/latest\)/);
  });

  it('retries a transport failure (HTTP 503) and then goes on', async () => {
    let calls = 0;
    const url = await agentAnswering((body, response) => (++calls === 1 ? json(response, {}, 503) : json(response, reply(body, { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'fine' }] } }))));
    expect(await (await connectA2aAgent(url, fast)).conversation().send(hello)).toBe('fine');
    expect(calls).toBe(2);
  });

  it('a JSON-RPC error, a malformed result and a reply without text are infrastructure errors naming the fault', async () => {
    const errs = await agentAnswering((body, response) => json(response, { jsonrpc: '2.0', id: body['id'], error: { code: -32602, message: 'bad params' } }));
    await expect((await connectA2aAgent(errs, fast)).conversation().send(hello)).rejects.toThrow(/SendMessage answered JSON-RPC error -32602: bad params/);
    const odd = await agentAnswering((body, response) => json(response, reply(body, { answer: 42 })));
    await expect((await connectA2aAgent(odd, fast)).conversation().send(hello)).rejects.toThrow(/a SendMessage result is \{message\} or \{task\}/);
    const mute = await agentAnswering((body, response) => json(response, reply(body, { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: {} }] } })));
    await expect((await connectA2aAgent(mute, fast)).conversation().send(hello)).rejects.toThrow(/answered no text part/);
    const wrongId = await agentAnswering((_body, response) => json(response, { jsonrpc: '2.0', id: 'other', result: { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } } }));
    await expect((await connectA2aAgent(wrongId, fast)).conversation().send(hello)).rejects.toThrow(/answered id "other"/);
  });

  it('follows a working task until it asks for input, and continues that task with the next message', async () => {
    const seen: Record<string, unknown>[] = [];
    let gets = 0;
    const url = await agentAnswering((body, response) => {
      seen.push(body);
      if (body['method'] === 'SendMessage') return json(response, reply(body, { task: taskOf('TASK_STATE_WORKING') }));
      return json(response, reply(body, ++gets < 3 ? taskOf('TASK_STATE_WORKING') : taskOf('TASK_STATE_INPUT_REQUIRED', 'what else?')));
    });
    const conversation = (await connectA2aAgent(url, fast)).conversation();
    expect(await conversation.send(hello)).toBe('what else?');
    expect(seen.map((b) => b['method'])).toEqual(['SendMessage', 'GetTask', 'GetTask', 'GetTask']);
    await conversation.send({ text: 'more' }).catch(() => undefined);
    const next = seen.findLast((b) => b['method'] === 'SendMessage')!;
    expect(next['params']).toMatchObject({ message: { contextId: 'c1', taskId: 't1', parts: [{ text: 'more' }] } });
  });

  it('a failed task, and a task working past the idle limit, end the turn as infrastructure errors', async () => {
    const failed = await agentAnswering((body, response) => json(response, reply(body, { task: taskOf('TASK_STATE_FAILED', 'model overloaded') })));
    await expect((await connectA2aAgent(failed, fast)).conversation().send(hello)).rejects.toThrow(/task t1 ended failed: model overloaded/);
    const stuck = await agentAnswering((body, response) => json(response, body['method'] === 'SendMessage' ? reply(body, { task: taskOf('TASK_STATE_WORKING') }) : reply(body, taskOf('TASK_STATE_WORKING'))));
    await expect((await connectA2aAgent(stuck, { ...fast, idleMs: 50, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), pollMs: 10 })).conversation().send(hello)).rejects.toThrow(/still working after the idle limit of 50 ms/);
  });
});
