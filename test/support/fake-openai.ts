// A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for tests and load/fault scripts: replies
// are queued in order, optionally routed by a predicate on the request, and every request body is captured.
// Handlers can also play a whole mock-domain conversation instantly, and inject seeded provider faults.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeVector } from './fake-embeddings.ts';

export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens: number };
  readonly completion_tokens_details?: { readonly reasoning_tokens: number };
}

export interface FakeToolCall {
  readonly id: string;
  readonly name: string;
  /** The `function.arguments` text exactly as the model would produce it (may be invalid JSON). */
  readonly arguments: string;
}

interface ReplyMeta {
  /** `null` leaves `usage` out of the response. Defaults to 10 prompt / 5 completion tokens. */
  readonly usage?: FakeUsage | null;
  /** The response's `model`; defaults to the requested model. */
  readonly model?: string;
  readonly finishReason?: string;
}

export type FakeReply =
  | ({ readonly kind: 'text'; readonly content: string | null } & ReplyMeta)
  | ({ readonly kind: 'tool_calls'; readonly content: string | null; readonly calls: readonly FakeToolCall[] } & ReplyMeta)
  | { readonly kind: 'error'; readonly status: number; readonly message: string; readonly headers?: Readonly<Record<string, string>> }
  /** Accepts the request and never answers: for timeout tests. */
  | { readonly kind: 'hang' }
  /** Closes the connection without an answer, as a server closing an idle keep-alive connection as a request arrives. */
  | { readonly kind: 'drop' }
  /** HTTP 200 with a body that is not a chat completion. */
  | { readonly kind: 'garbage'; readonly body: string }
  /** Full control over status, headers and body text. */
  | { readonly kind: 'raw'; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> };

export interface CapturedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body text as received. */
  readonly bodyText: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  readonly body: unknown;
}

export type RequestMatcher = (request: CapturedRequest) => boolean;

export interface FakeOpenAI {
  /** Ends with `/v1`; give it to the client as its base URL. */
  readonly baseURL: string;
  /** Every chat-completions request, in arrival order. */
  readonly requests: CapturedRequest[];
  /** Every embeddings request's texts, in arrival order (answered with `fakeVector`s). */
  readonly embeddingRequests: { readonly model: string; readonly input: readonly string[] }[];
  /** Appends replies to the shared queue, answered first-in first-out. */
  enqueue(...replies: FakeReply[]): void;
  /** Appends replies to a queue used only for requests `matcher` accepts; routed queues are tried first. */
  enqueueFor(matcher: RequestMatcher, ...replies: FakeReply[]): void;
  /** Answers requests that no queued reply is left for (instead of the default HTTP 500). */
  setHandler(handler: FakeHandler | null): void;
  /** Replies still queued, over all queues. */
  pending(): number;
  close(): Promise<void>;
}

// Reply builders, so tests read as scripts.
export const text = (content: string | null, meta: ReplyMeta = {}): FakeReply => ({ kind: 'text', content, ...meta });
export const toolCalls = (calls: readonly FakeToolCall[], meta: ReplyMeta & { content?: string | null } = {}): FakeReply => ({
  kind: 'tool_calls',
  calls,
  ...meta,
  content: meta.content ?? null,
});
export const toolCall = (name: string, args: string, id = `call_${name}`, meta: ReplyMeta = {}): FakeReply =>
  toolCalls([{ id, name, arguments: args }], meta);
export const httpError = (status: number, message = `scripted HTTP ${status}`, headers?: Record<string, string>): FakeReply =>
  headers === undefined ? { kind: 'error', status, message } : { kind: 'error', status, message, headers };
export const hang = (): FakeReply => ({ kind: 'hang' });
export const drop = (): FakeReply => ({ kind: 'drop' });
export const garbage = (body = '<html>502 Bad Gateway</html>'): FakeReply => ({ kind: 'garbage', body });

/** Matches requests whose system prompt (the first message) starts with `prefix`. */
export const systemPromptStartsWith =
  (prefix: string): RequestMatcher =>
  (request) => {
    const first = (request.body as { messages?: Array<{ role?: unknown; content?: unknown }> } | undefined)?.messages?.[0];
    return first?.role === 'system' && typeof first.content === 'string' && first.content.startsWith(prefix);
  };

/** Matches requests for one model. */
export const forModel =
  (model: string): RequestMatcher =>
  (request) =>
    (request.body as { model?: unknown } | undefined)?.model === model;

const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

const completionBody = (reply: Extract<FakeReply, { kind: 'text' | 'tool_calls' }>, request: CapturedRequest, n: number): string => {
  const requested = (request.body as { model?: unknown } | undefined)?.model;
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content };
  if (reply.kind === 'tool_calls') {
    message['tool_calls'] = reply.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  const usage = reply.usage === undefined ? DEFAULT_USAGE : reply.usage;
  return JSON.stringify({
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000 + n,
    model: reply.model ?? (typeof requested === 'string' ? requested : 'fake-model'),
    choices: [{ index: 0, message, finish_reason: reply.finishReason ?? (reply.kind === 'tool_calls' ? 'tool_calls' : 'stop') }],
    ...(usage === null ? {} : { usage }),
  });
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const send = (res: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

export type FakeHandler = (request: CapturedRequest) => FakeReply | Promise<FakeReply>;

interface WireMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}
const messagesOf = (request: CapturedRequest): readonly WireMessage[] =>
  (request.body as { messages?: WireMessage[] } | undefined)?.messages ?? [];

export const isUserSimulator = systemPromptStartsWith('# User Simulation Guidelines');
export const isAgent = systemPromptStartsWith('<instructions>');

/**
 * Plays the same short mock-domain conversation in every episode, instantly and deterministically: the user
 * asks for the users, the agent calls `get_users` and answers, the user stops. Four model calls per episode.
 * (With this conversation the mock task `create_task_1_with_env_assertions` fails evaluation — its assertion
 * reads a task the agent never created — so it ends as an infrastructure error, as in the reference.)
 */
export const mockConversation = (options: { delayMs?: number } = {}): FakeHandler => async (request) => {
  // A provider's think time, e.g. so that a run lasts long enough to be interrupted.
  if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  const messages = messagesOf(request);
  if (isUserSimulator(request)) {
    // The user simulator's own earlier turns are the `assistant` messages of its history.
    const spoken = messages.some((m) => m.role === 'assistant');
    return text(spoken ? 'Thanks, that is all I needed. ###STOP###' : 'Hi! Could you list the users, please?');
  }
  if (isAgent(request)) {
    return messages.at(-1)?.role === 'tool' ? text('Those are all the users.') : toolCall('get_users', '{}', 'call_get_users');
  }
  return text('ok');
};

/**
 * Answers as OpenAI does a request whose bearer key is not `key`: HTTP 401 "Incorrect API key provided", here
 * with the key sent repeated in full (the worst a provider may do), so a test sees it redacted; else `inner`.
 */
export const requireKey = (key: string, inner: FakeHandler): FakeHandler => (request) => {
  const sent = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';
  return sent === key ? inner(request) : httpError(401, `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`);
};

export const FAULT_KINDS = ['429', '500', 'hang', 'garbage'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultPlan {
  readonly seed: number;
  /** The fraction of calls answered with a fault, in [0, 1]. */
  readonly rate: number;
  readonly kinds?: readonly FaultKind[];
}

export interface FaultStats {
  readonly requests: number;
  readonly faults: Readonly<Record<FaultKind, number>>;
  /** Faulted request bodies that were never sent again and answered normally afterwards. */
  readonly unretried: number;
}

export interface FaultyHandler {
  readonly handler: FakeHandler;
  stats(): FaultStats;
}

const unitInterval = (text: string): number => Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 12), 16) / 2 ** 48;

const faultReply = (kind: FaultKind): FakeReply => {
  switch (kind) {
    case '429':
      return httpError(429, 'Rate limit reached (injected fault)', { 'retry-after': '0' });
    case '500':
      return httpError(500, 'Internal server error (injected fault)');
    case 'hang':
      return hang();
    case 'garbage':
      return garbage();
  }
};

/**
 * Answers a seeded fraction of calls with 429 / 500 / a hang / a non-JSON body, and the rest with `inner`. The
 * decision depends on the seed, the request body and how often that body was seen before — not on arrival
 * order — so concurrent runs fault the same calls, and a retried call is decided afresh.
 */
export const withFaults = (inner: FakeHandler, plan: FaultPlan): FaultyHandler => {
  const kinds = plan.kinds ?? FAULT_KINDS;
  const seen = new Map<string, number>();
  const pendingRetry = new Set<string>();
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  let requests = 0;
  const handler: FakeHandler = (request) => {
    requests++;
    const key = createHash('sha256').update(request.bodyText).digest('hex');
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const draw = unitInterval(`${plan.seed}:${key}:${occurrence}`);
    if (draw < plan.rate) {
      const kind = kinds[Math.floor((draw / plan.rate) * kinds.length)]!;
      faults[kind]++;
      pendingRetry.add(key);
      return faultReply(kind);
    }
    pendingRetry.delete(key);
    return inner(request);
  };
  return { handler, stats: () => ({ requests, faults: { ...faults }, unretried: pendingRetry.size }) };
};

/** The embeddings route: the fake embedder's vectors (see fake-embeddings.ts) for an OpenAI embeddings request. */
const answerEmbeddings = (res: ServerResponse, bodyText: string, log: FakeOpenAI['embeddingRequests']): void => {
  const body = JSON.parse(bodyText) as { model: string; input: string[] };
  log.push({ model: body.model, input: body.input });
  const data = body.input.map((input, index) => ({ object: 'embedding', index, embedding: fakeVector(input) }));
  send(res, 200, JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
};

export const startFakeOpenAI = async (): Promise<FakeOpenAI> => {
  const requests: CapturedRequest[] = [];
  const embeddingRequests: FakeOpenAI['embeddingRequests'] = [];
  const shared: FakeReply[] = [];
  const routes: Array<{ matcher: RequestMatcher; queue: FakeReply[] }> = [];
  let handler: FakeHandler | null = null;

  const nextReply = async (request: CapturedRequest): Promise<FakeReply | undefined> => {
    for (const route of routes) {
      if (route.queue.length > 0 && route.matcher(request)) return route.queue.shift();
    }
    if (shared.length > 0) return shared.shift();
    return handler === null ? undefined : handler(request);
  };

  const answer = (res: ServerResponse, reply: FakeReply, request: CapturedRequest, n: number): void => {
    switch (reply.kind) {
      case 'text':
      case 'tool_calls':
        return send(res, 200, completionBody(reply, request, n));
      case 'error':
        return send(res, reply.status, JSON.stringify({ error: { message: reply.message, type: 'fake_error', code: reply.status } }), reply.headers);
      case 'garbage':
        return send(res, 200, reply.body, { 'content-type': 'text/html' });
      case 'raw':
        return send(res, reply.status, reply.body, reply.headers);
      case 'hang':
        return;
      case 'drop':
        return void res.socket?.destroy();
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      const bodyText = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (req.method === 'POST' && path.endsWith('/embeddings')) return answerEmbeddings(res, bodyText, embeddingRequests);
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        return send(res, 404, JSON.stringify({ error: { message: `fake-openai: no route ${req.method} ${path}` } }));
      }
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = undefined;
      }
      const request: CapturedRequest = { method: req.method, path, headers: req.headers, bodyText, body };
      requests.push(request);
      const n = requests.length;
      const reply = await nextReply(request);
      if (reply === undefined) {
        return send(res, 500, JSON.stringify({ error: { message: `fake-openai: no scripted reply for request #${n} (model ${String((body as { model?: unknown } | undefined)?.model)})` } }));
      }
      answer(res, reply, request, n);
    })().catch((err: unknown) => send(res, 500, JSON.stringify({ error: { message: `fake-openai: ${String(err)}` } })));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    enqueue: (...replies) => void shared.push(...replies),
    enqueueFor: (matcher, ...replies) => {
      const route = routes.find((r) => r.matcher === matcher);
      if (route) route.queue.push(...replies);
      else routes.push({ matcher, queue: [...replies] });
    },
    setHandler: (fn) => {
      handler = fn;
    },
    pending: () => shared.length + routes.reduce((sum, r) => sum + r.queue.length, 0),
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Hung requests keep their sockets open; drop them so close() returns.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
};
