// The A2A agent's seats at the episodes of a run played in this process: each episode's MCP endpoint served on
// 127.0.0.1 (one server for the run, a path and a random token per episode), and the agent's turns asked of the
// seat of the episode the engine is playing.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import getPort from 'get-port';
import { connectA2aAgent } from '../../../core/a2a/agent-client.ts';
import type { A2aAgentOptions } from '../../../core/a2a/agent-client.ts';
import type { LlmClient } from '../../../core/llm/types.ts';
import { answerMcp } from '../../../core/mcp/server.ts';
import { PROTOCOL_HEADER, answerBody, protocolVersionIssue } from '../../../core/mcp/streamable-http.ts';
import { dumpsPy } from '../../../core/py/index.ts';
import type { PyInput } from '../../../core/py/index.ts';
import { McpMessageSchema } from '../../../api/mcp.ts';
import { episodeSeat } from './episode-seat.ts';
import type { EpisodeSeat } from './episode-seat.ts';

/** The largest JSON-RPC message an agent may post (a tool call's arguments). */
const MAX_MESSAGE_BYTES = 1_000_000;

export interface A2aSeats {
  /** The agent's turns, as the engine asks a model for them. */
  readonly client: LlmClient;
  /** Plays one episode with its own seat (and MCP endpoint) for the agent. */
  around<T>(run: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether the bearer token is the seat's, compared in constant time. */
const opens = (seat: EpisodeSeat, authorization: string | undefined): boolean => {
  const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  return token !== undefined && timingSafeEqual(digest(token), digest(seat.token));
};

const refusal = (code: string, message: string) => ({ error: { code, message } });

const endpoint = (seats: ReadonlyMap<string, EpisodeSeat>) =>
  new Hono().post('/episodes/:id/mcp', bodyLimit({ maxSize: MAX_MESSAGE_BYTES, onError: (c) => c.json(refusal('payload_too_large', `A message is at most ${MAX_MESSAGE_BYTES} bytes`), 413) }), async (c) => {
    const seat = seats.get(c.req.param('id'));
    if (seat === undefined || !opens(seat, c.req.header('authorization'))) return c.json(refusal('unauthorized', 'This token does not open this episode'), 401);
    const versionIssue = protocolVersionIssue(c.req.header(PROTOCOL_HEADER));
    if (versionIssue !== null) return c.json(refusal('invalid_request', versionIssue), 400);
    const parsed = McpMessageSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json(refusal('invalid_request', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')), 400);
    const message = parsed.data;
    if (message.id === undefined) return c.body(null, 202);
    const response = dumpsPy((await answerMcp(seat.mcp, { ...message, id: message.id })) as unknown as PyInput);
    const { body, headers } = answerBody(response, c.req.header('accept'));
    return c.body(body, 200, headers);
  });

/** Connects to the agent at `agentUrl` (its card) and serves the episodes' MCP endpoints until closed. */
export const startA2aSeats = async (agentUrl: string, options: A2aAgentOptions = {}): Promise<A2aSeats> => {
  const agent = await connectA2aAgent(agentUrl, options).catch((error: unknown) => {
    throw new Error(`--agent-url: the A2A agent at ${agentUrl} cannot be used: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  });
  const seats = new Map<string, EpisodeSeat>();
  const current = new AsyncLocalStorage<EpisodeSeat>();
  const port = await getPort({ host: '127.0.0.1' });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: endpoint(seats).fetch, hostname: '127.0.0.1', port }, () => resolve(started));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    client: {
      generate: (request) => {
        const seat = current.getStore();
        if (seat === undefined) throw new Error('An a2a agent turn was asked outside an episode');
        return seat.turn(request);
      },
    },
    async around(run) {
      const id = randomUUID();
      const seat = episodeSeat(id, `tau2ep_${randomBytes(32).toString('base64url')}`, `${origin}/episodes/${id}/mcp`, () => agent.conversation());
      seats.set(id, seat);
      try {
        return await current.run(seat, run);
      } finally {
        seat.close();
        seats.delete(id);
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // An agent's kept-alive connections would hold the server open.
        (server as Server).closeAllConnections();
      }),
  };
};
