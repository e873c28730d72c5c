// The client of an agent under test that speaks A2A: reads its card, then holds one conversation (one A2A context)
// per episode, sending each message over the JSON-RPC binding of the version the card names (1.0's SendMessage and
// GetTask, 0.3's message/send and tasks/get) and following a task until it completes, fails or asks for input.
// The endpoint rules of agent endpoints hold: no redirects, the caller's headers on every call, retries for
// transport failures only, an infrastructure error naming what broke the protocol, and an idle limit on a task.
import { InfraError } from '../llm/types.ts';
import { withoutRedirects } from '../llm/no-redirects.ts';
import { defaultSleep, isRetryable, isRetryableStatus, tryN } from '../llm/retry.ts';
import { cardInterface, sendResult, taskResult } from './wire.ts';
import { A2A_VERSION_HEADER, AGENT_CARD_PATH } from '../schemas/a2a.ts';
import type { AgentInterface, Reply } from './wire.ts';

export interface A2aAgentOptions {
  /** The transport (the global fetch by default); redirects are refused whatever it does. */
  readonly fetch?: typeof fetch;
  /** Sent with every call (e.g. the agent's own Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Retries of a call after a transport failure (network, 408/429/5xx). */
  readonly maxRetries?: number;
  readonly attemptTimeoutMs?: number;
  /** How long a task may stay submitted or working before the turn is given up as an infrastructure error. */
  readonly idleMs?: number;
  /** The wait between two reads of a running task. */
  readonly pollMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** One message to the agent: its words, and structured data (a data part, also given as the message's metadata). */
export interface A2aMessage {
  readonly text: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Where a conversation stands between two messages: its context, and the task that asked for input (if any). */
export interface ConversationState {
  readonly contextId: string | null;
  readonly openTask: string | null;
}

/** One episode's exchange with the agent: each send answers the agent's reply text. */
export interface A2aConversation {
  send(message: A2aMessage): Promise<string>;
  /** Where it stands now, to resume it later (e.g. in the next queue message). */
  state(): ConversationState;
}

export interface A2aAgent {
  readonly endpoint: AgentInterface;
  /** A new conversation, or one resumed where it stood. */
  conversation(from?: ConversationState): A2aConversation;
}

const METHODS = { '1.0': { send: 'SendMessage', get: 'GetTask' }, '0.3': { send: 'message/send', get: 'tasks/get' } } as const;

const protocolError = (agent: string, what: string): InfraError => new InfraError(`A2A agent ${agent}: ${what}`, { retryable: false });

/** The card's URL for an agent URL: the URL itself when it names the card, else the well-known path under it. */
export const agentCardUrl = (agentUrl: string): string => (agentUrl.endsWith('.json') ? agentUrl : `${agentUrl.replace(/\/+$/, '')}${AGENT_CARD_PATH}`);

const resolvedOptions = (options: A2aAgentOptions) => ({
  fetch: withoutRedirects(options.fetch),
  headers: options.headers ?? {},
  attempts: (options.maxRetries ?? 3) + 1,
  attemptTimeoutMs: options.attemptTimeoutMs ?? 120_000,
  idleMs: options.idleMs ?? 600_000,
  pollMs: options.pollMs ?? 500,
  sleep: options.sleep ?? defaultSleep,
});
type Resolved = ReturnType<typeof resolvedOptions>;

/** One HTTP exchange, retried on transport failures; the JSON body of a 2xx, or an infrastructure error. */
const exchange = (o: Resolved, agent: string, url: string, init: RequestInit, what: string): Promise<unknown> =>
  tryN(
    o.attempts,
    async () => {
      const response = await o.fetch(url, { ...init, headers: { ...o.headers, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(o.attemptTimeoutMs) });
      if (!response.ok) {
        await response.body?.cancel();
        throw new InfraError(`A2A agent ${agent}: ${what} answered HTTP ${response.status}`, { retryable: isRetryableStatus(response.status) });
      }
      const text = await response.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw protocolError(agent, `${what} answered a body that is not JSON (${text.slice(0, 120)})`);
      }
    },
    { shouldRetry: isRetryable, sleep: o.sleep },
  );

const rpc = async (o: Resolved, agent: string, endpoint: AgentInterface, method: string, params: unknown): Promise<unknown> => {
  const id = crypto.randomUUID();
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const headers = { 'content-type': 'application/json', accept: 'application/json', [A2A_VERSION_HEADER]: endpoint.version };
  const answer = await exchange(o, agent, endpoint.url, { method: 'POST', headers, body }, method);
  if (typeof answer !== 'object' || answer === null || (answer as { jsonrpc?: unknown }).jsonrpc !== '2.0') throw protocolError(agent, `${method} answered something other than a JSON-RPC 2.0 response`);
  const { error, result, id: answeredId } = answer as { error?: { code?: unknown; message?: unknown }; result?: unknown; id?: unknown };
  if (error !== undefined) throw protocolError(agent, `${method} answered JSON-RPC error ${String(error.code)}: ${String(error.message)}`);
  if (answeredId !== id) throw protocolError(agent, `${method} answered id ${JSON.stringify(answeredId)}, not the request's ${id}`);
  if (result === undefined) throw protocolError(agent, `${method} answered neither a result nor an error`);
  return result;
};

const outgoing = (endpoint: AgentInterface, message: A2aMessage, contextId: string | null, taskId: string | null) => {
  const ids = { messageId: crypto.randomUUID(), ...(contextId === null ? {} : { contextId }), ...(taskId === null ? {} : { taskId }) };
  const metadata = message.data === undefined ? {} : { metadata: message.data };
  if (endpoint.version === '1.0') {
    const data = message.data === undefined ? [] : [{ data: message.data, mediaType: 'application/json' }];
    return { message: { ...ids, role: 'ROLE_USER', parts: [{ text: message.text }, ...data], ...metadata } };
  }
  const data = message.data === undefined ? [] : [{ kind: 'data', data: message.data }];
  return { message: { kind: 'message', ...ids, role: 'user', parts: [{ kind: 'text', text: message.text }, ...data], ...metadata } };
};

const checked = (agent: string, reply: Reply | string, what: string): Reply => {
  if (typeof reply === 'string') throw protocolError(agent, `${what}: ${reply}`);
  return reply;
};

/** Reads the agent's card and returns the agent, ready for conversations. */
export const connectA2aAgent = async (agentUrl: string, options: A2aAgentOptions = {}): Promise<A2aAgent> => {
  const o = resolvedOptions(options);
  const cardUrl = agentCardUrl(agentUrl);
  const card = await exchange(o, agentUrl, cardUrl, { method: 'GET', headers: { accept: 'application/json' } }, `the agent card ${cardUrl}`);
  const endpoint = cardInterface(card);
  if (typeof endpoint === 'string') throw protocolError(agentUrl, `the agent card ${cardUrl} cannot be used: ${endpoint}`);
  const methods = METHODS[endpoint.version];

  const follow = async (first: Reply): Promise<Reply> => {
    const deadline = Date.now() + o.idleMs;
    let reply = first;
    while (reply.state === 'working') {
      if (Date.now() > deadline) throw new InfraError(`A2A agent ${agentUrl}: task ${reply.taskId} still working after the idle limit of ${o.idleMs} ms`, { retryable: true });
      await o.sleep(o.pollMs);
      reply = checked(agentUrl, taskResult(endpoint.version, await rpc(o, agentUrl, endpoint, methods.get, { id: reply.taskId })), methods.get);
    }
    return reply;
  };

  return {
    endpoint,
    conversation: (from = { contextId: null, openTask: null }) => {
      let { contextId, openTask } = from;
      return {
        state: () => ({ contextId, openTask }),
        async send(message) {
          const sent = await rpc(o, agentUrl, endpoint, methods.send, outgoing(endpoint, message, contextId, openTask));
          const reply = await follow(checked(agentUrl, sendResult(endpoint.version, sent), methods.send));
          contextId = reply.contextId ?? contextId;
          if (reply.state !== 'completed' && reply.state !== 'input_required') {
            throw protocolError(agentUrl, `task ${reply.taskId} ended ${reply.state}${reply.text ? `: ${reply.text.slice(0, 300)}` : ''}`);
          }
          // A task that asks for input takes the next message; a completed one is done with.
          openTask = reply.state === 'input_required' ? reply.taskId : null;
          if (reply.text.trim() === '') throw protocolError(agentUrl, `${methods.send} answered no text part (task ${reply.taskId ?? 'none'})`);
          return reply.text;
        },
      };
    },
  };
};
