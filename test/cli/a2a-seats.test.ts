// The A2A agent's seats of an in-process run, driven as the engine drives them: an agent built with the official A2A
// SDK gets the briefing (this process's MCP endpoint of the episode, its token, the policy), calls a tool over MCP
// with the official MCP SDK client (the engine's turn is that tool call; its result the call's answer) and replies
// (the engine's next turn). The endpoint opens to the episode's token only, and refuses what MCP does not allow.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkAgent } from '../support/a2a-agents.ts';
import type { Briefing, SdkAgent } from '../support/a2a-agents.ts';
import { startA2aSeats } from '../../src/cli/run/a2a/seats.ts';
import type { A2aSeats } from '../../src/cli/run/a2a/seats.ts';
import { agentSystemPrompt } from '../../src/core/agents/prompts.ts';
import type { ChatMessage, LlmRequest } from '../../src/core/llm/types.ts';
import type { ToolSchema } from '../../src/core/llm/tool-schema.ts';

const POLICY = 'Create tasks for users who ask for them.';
const TOOL: ToolSchema = {
  type: 'function',
  function: { name: 'create_task', description: 'Creates a task.', parameters: { title: 'parameters', type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
};

const turnRequest = (messages: ChatMessage[]): LlmRequest => ({ model: 'a2a', messages, tools: [TOOL], toolChoice: 'auto', llmArgs: {} });

/** What the agent saw when it tried the endpoint with wrong requests: each answer's status and body. */
const probes: Record<string, { status: number; body: string }> = {};

const probe = async (briefing: Briefing, name: string, init: { token?: string; headers?: Record<string, string>; body?: string }): Promise<void> => {
  const response = await fetch(briefing.mcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${init.token ?? briefing.mcp.token}`, ...init.headers },
    body: init.body ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  probes[name] = { status: response.status, body: await response.text() };
};

/** A POST announcing a body past the limit: answered before the body is read. */
const oversized = (briefing: Briefing): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const sent = request(briefing.mcp.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '2000000', authorization: `Bearer ${briefing.mcp.token}` } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.write('{"jsonrpc": "2.0", ');
  });

let agent: SdkAgent;
let seats: A2aSeats;

beforeAll(async () => {
  agent = await startSdkAgent({
    style: 'message',
    brain: async ({ briefing, tools, turn }) => {
      if (turn > 0) return 'Anything else?';
      await probe(briefing, 'ping', {});
      await probe(briefing, 'wrong token', { token: `${briefing.mcp.token}x` });
      await probe(briefing, 'old revision', { headers: { 'mcp-protocol-version': '2024-11-05' } });
      await probe(briefing, 'no method', { body: JSON.stringify({ jsonrpc: '2.0', id: 2 }) });
      await probe(briefing, 'not json', { body: '{' });
      probes['too large'] = await oversized(briefing);
      await probe(briefing, 'say without words', { body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'send_message_to_user', arguments: {} } }) });
      const created = await tools.call('create_task', { title: 'Important Meeting' });
      return `Created: ${(created.content as { text: string }[])[0]!.text}`;
    },
  });
  seats = await startA2aSeats(agent.url);
});

afterAll(async () => {
  await seats.close();
  await agent.close();
});

describe('an in-process episode seat of an A2A agent', () => {
  it('plays the agent turns: its MCP tool call, then its reply; the endpoint refuses what it must', async () => {
    const opening: ChatMessage[] = [
      { role: 'system', content: agentSystemPrompt(POLICY) },
      { role: 'assistant', content: 'Hi! How can I help you today?', tool_calls: null },
      { role: 'user', content: 'Please create a task called Important Meeting.' },
    ];
    await seats.around(async () => {
      const call = await seats.client.generate(turnRequest(opening));
      expect(call.content).toBeNull();
      expect(call.toolCalls).toEqual([{ id: expect.any(String), name: 'create_task', arguments: JSON.stringify({ title: 'Important Meeting' }) }]);
      const answered = [...opening, { role: 'assistant' as const, content: null, tool_calls: [{ id: call.toolCalls[0]!.id, name: 'create_task', arguments: { title: 'Important Meeting' } }] }, { role: 'tool' as const, content: '{"task_id": "task_2"}', tool_call_id: call.toolCalls[0]!.id }];
      const reply = await seats.client.generate(turnRequest(answered));
      expect(reply).toMatchObject({ content: 'Created: {"task_id": "task_2"}', toolCalls: [] });
    });

    const [first] = agent.received;
    expect(first!.data).toEqual([{ episode_id: expect.any(String), mcp: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/episodes\/[\w-]+\/mcp$/), token: expect.stringMatching(/^tau2ep_/) }, policy: POLICY }]);
    expect(probes['ping']).toMatchObject({ status: 200 });
    expect(JSON.parse(probes['ping']!.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(probes['wrong token']).toMatchObject({ status: 401 });
    expect(probes['old revision']!.status).toBe(400);
    expect(probes['old revision']!.body).toContain('mcp-protocol-version: 2024-11-05');
    expect(probes['no method']!.status).toBe(400);
    expect(probes['no method']!.body).toContain('method');
    expect(probes['not json']!.status).toBe(400);
    expect(probes['too large']!.status).toBe(413);
    expect(JSON.parse(probes['say without words']!.body)).toMatchObject({ id: 4, error: { code: -32602, message: 'arguments.message: Expected a string' } });
  });

  it('refuses a tool call while the agent answers no message, and every call once the episode is over', async () => {
    let briefing: Briefing | null = null;
    const late = await startSdkAgent({ style: 'message', brain: async ({ briefing: b }) => ((briefing = b), 'Hello.') });
    const lateSeats = await startA2aSeats(late.url);
    try {
      await lateSeats.around(async () => {
        const reply = await lateSeats.client.generate(turnRequest([{ role: 'system', content: agentSystemPrompt(POLICY) }, { role: 'user', content: 'Hi' }]));
        expect(reply.content).toBe('Hello.');
        const between = await probeCall(briefing!);
        expect(between).toMatchObject({ status: 200, body: { error: { message: expect.stringContaining('waits for no tool call') } } });
      });
      expect((await probeCall(briefing!)).status).toBe(401);
    } finally {
      await lateSeats.close();
      await late.close();
    }
  });
});

const probeCall = async (briefing: Briefing): Promise<{ status: number; body: unknown }> => {
  const response = await fetch(briefing.mcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${briefing.mcp.token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_task', arguments: { title: 'x' } } }),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
};
