// A2A agents built with the official A2A JavaScript SDK (@a2a-js/sdk) and served on 127.0.0.1 through the SDK's
// JSON-RPC transport handlers (1.0, or 0.3 through its compatibility layer): one replies with a message, one
// answers with a task (input-required after each turn). What the agent says is its `brain`'s, which reads the
// briefing of the first message and calls the episode's tools over MCP with the official MCP SDK client.
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, Message, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, defaultServerCallContextBuilder, validateVersion } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What the first message of an episode carries (its data part and metadata). */
export interface Briefing {
  readonly episode_id: string;
  readonly mcp: { readonly url: string; readonly token: string };
  readonly policy: string;
}

/** The episode's tools, as the agent reaches them over MCP. */
export interface Tools {
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** One turn of the agent: the user's words, the conversation's briefing and tools; answers the agent's words. */
export type Brain = (turn: { readonly text: string; readonly briefing: Briefing; readonly tools: Tools; readonly turn: number }) => Promise<string>;

export interface SdkAgent {
  readonly url: string;
  /** Every message the agent received: its text, data parts and metadata. */
  readonly received: { text: string; data: unknown[]; metadata: unknown }[];
  /** The context of each message received. */
  readonly contexts: string[];
  close(): Promise<void>;
}

interface Conversation {
  readonly briefing: Briefing;
  readonly tools: Tools;
  readonly mcp: McpClient | null;
  turns: number;
}

const agentText = (contextId: string, taskId: string, text: string) =>
  Message.fromJSON({ messageId: crypto.randomUUID(), role: 'ROLE_AGENT', contextId, ...(taskId ? { taskId } : {}), parts: [{ text }] });

const connectMcp = async (briefing: Briefing): Promise<McpClient> => {
  const client = new McpClient({ name: 'sdk-a2a-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(briefing.mcp.url), { requestInit: { headers: { authorization: `Bearer ${briefing.mcp.token}` } } }));
  return client;
};

class ScriptedExecutor implements AgentExecutor {
  readonly conversations = new Map<string, Conversation>();
  readonly received: SdkAgent['received'] = [];
  readonly contexts: string[] = [];
  private readonly style: 'message' | 'task';
  private readonly brain: Brain;
  private readonly connect: boolean;

  constructor(style: 'message' | 'task', brain: Brain, connect: boolean) {
    this.style = style;
    this.brain = brain;
    this.connect = connect;
  }

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { userMessage, contextId, taskId } = request;
    const text = userMessage.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');
    const data = userMessage.parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : []));
    this.received.push({ text, data, metadata: userMessage.metadata });
    this.contexts.push(contextId);
    let conversation = this.conversations.get(contextId);
    if (!conversation) {
      const briefing = data[0] as Briefing;
      const mcp = this.connect ? await connectMcp(briefing) : null;
      const call = async (name: string, args: Record<string, unknown>) => {
        if (mcp === null) throw new Error('This agent was started without MCP');
        return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
      };
      conversation = { briefing, mcp, turns: 0, tools: { call } };
      this.conversations.set(contextId, conversation);
    }
    if (this.style === 'task') {
      bus.publish(AgentEvent.task(Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_WORKING' } })));
      const reply = await this.brain({ text, briefing: conversation.briefing, tools: conversation.tools, turn: conversation.turns++ });
      bus.publish(
        AgentEvent.statusUpdate(
          TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state: 'TASK_STATE_INPUT_REQUIRED', message: Message.toJSON(agentText(contextId, taskId, reply)) } }),
        ),
      );
    } else {
      const reply = await this.brain({ text, briefing: conversation.briefing, tools: conversation.tools, turn: conversation.turns++ });
      bus.publish(AgentEvent.message(agentText(contextId, '', reply)));
    }
    bus.finished();
  }

  async cancelTask(): Promise<void> {}

  async close(): Promise<void> {
    await Promise.all([...this.conversations.values()].map((c) => c.mcp?.close()));
  }
}

const bodyOf = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const cardFor = (url: string, version: '1.0' | '0.3') =>
  version === '1.0'
    ? {
        name: 'sdk-agent',
        description: 'An agent under test',
        version: '1.0.0',
        supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: { streaming: false },
        defaultInputModes: ['text/plain', 'application/json'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'support', name: 'support', description: 'customer support', tags: ['support'] }],
      }
    : {
        protocolVersion: '0.3.0',
        name: 'sdk-agent-0.3',
        description: 'An agent under test speaking A2A 0.3',
        version: '1.0.0',
        url: `${url}/rpc`,
        preferredTransport: 'JSONRPC',
        capabilities: { streaming: false },
        defaultInputModes: ['text/plain', 'application/json'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'support', name: 'support', description: 'customer support', tags: ['support'] }],
      };

/** Starts an SDK-built agent on 127.0.0.1: its card at /.well-known/agent-card.json, its JSON-RPC endpoint at /rpc. */
export const startSdkAgent = async ({
  style,
  brain,
  version = '1.0',
  connect = true,
  authorization,
}: {
  style: 'message' | 'task';
  brain: Brain;
  version?: '1.0' | '0.3';
  /** Whether the agent connects to the briefing's MCP endpoint (an episode's). */
  connect?: boolean;
  /** The Authorization header every request must carry (401 otherwise). */
  authorization?: string;
}): Promise<SdkAgent> => {
  const executor = new ScriptedExecutor(style, brain, connect);
  let card: AgentCard | undefined;
  let url = '';
  const handler = () => new DefaultRequestHandler(card!, new InMemoryTaskStore(), executor);
  let requests: DefaultRequestHandler | undefined;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (authorization !== undefined && request.headers.authorization !== authorization) return send(401, { error: 'unauthorized' });
      if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') return send(200, cardFor(url, version));
      if (request.method !== 'POST' || request.url !== '/rpc') return send(404, { error: 'not found' });
      const body = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
      requests ??= handler();
      const requestedVersion = (request.headers['a2a-version'] as string | undefined) || undefined;
      const context = defaultServerCallContextBuilder({ extensions: undefined, user: undefined, headers: request.headers, requestedVersion });
      if (version === '0.3') return send(200, await new LegacyJsonRpcTransportHandler(requests).handle(body, context));
      validateVersion(context.requestedVersion, card!, 'JSONRPC');
      return send(200, await new JsonRpcTransportHandler(requests).handle(body, context));
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = AgentCard.fromJSON({ ...cardFor(url, '1.0'), supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: version }] });
  return {
    url,
    received: executor.received,
    contexts: executor.contexts,
    close: async () => {
      await executor.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
