// Scripted Anthropic (Messages API), Google (Gemini generateContent) and OpenAI (Responses API) servers on
// 127.0.0.1 for tests: each request is captured, checked against the rules the real API enforces on reasoning
// state (fake-anthropic.ts, fake-gemini.ts, fake-responses.ts; refused with that API's error shape), and a
// handler answers it with text, a tool call or an HTTP error, in the provider's own wire format.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicBody, anthropicErrorBody, anthropicRefusal } from './fake-anthropic.ts';
import type { Refusal } from './fake-anthropic.ts';
import { geminiBody, geminiErrorBody, geminiRefusal } from './fake-gemini.ts';
import { responsesBody, responsesErrorBody, responsesRefusal } from './fake-responses.ts';

/**
 * `reasoning`: the model's thinking before its answer, where the request lets it think; `redacted`: Anthropic
 * returns it as a redacted_thinking block (encrypted data, no text).
 */
export type NativeReply =
  | { readonly kind: 'text'; readonly text: string; readonly reasoning?: string; readonly redacted?: boolean }
  | { readonly kind: 'tool'; readonly name: string; readonly input: Record<string, unknown>; readonly reasoning?: string; readonly redacted?: boolean }
  | { readonly kind: 'error'; readonly status: number; readonly message: string };

export type NativeProviderName = 'anthropic' | 'google' | 'responses';

export interface NativeRequest {
  readonly provider: NativeProviderName;
  readonly model: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** The conversation's texts, oldest first, as `role: text` (tool calls and results as `role: [tool …]`). */
  readonly transcript: readonly string[];
}

export interface FakeNative {
  /** For createAnthropic / ANTHROPIC_BASE_URL. */
  readonly anthropicURL: string;
  /** For createGoogleGenerativeAI / GOOGLE_GENERATIVE_AI_BASE_URL. */
  readonly googleURL: string;
  /** An OpenAI API root answering `/responses` (e.g. a role's api_base for `openai/responses/…` models). */
  readonly responsesURL: string;
  /** Requests refused for breaking the API's rules, with the message sent. */
  readonly refusals: { readonly request: NativeRequest; readonly message: string }[];
  readonly requests: NativeRequest[];
  setHandler(handler: (request: NativeRequest) => NativeReply): void;
  close(): Promise<void>;
}

type Part = Record<string, unknown>;

const anthropicTranscript = (body: Record<string, unknown>): string[] =>
  ((body.messages ?? []) as { role: string; content: string | Part[] }[]).flatMap((m) =>
    typeof m.content === 'string'
      ? [`${m.role}: ${m.content}`]
      : m.content.map((p) => (p.type === 'text' ? `${m.role}: ${String(p.text)}` : `${m.role}: [${String(p.type)}]`)),
  );

const googleTranscript = (body: Record<string, unknown>): string[] =>
  ((body.contents ?? []) as { role: string; parts: Part[] }[]).flatMap((c) =>
    c.parts.map((p) => (typeof p.text === 'string' ? `${c.role}: ${p.text}` : `${c.role}: [${Object.keys(p)[0]}]`)),
  );

const responsesTranscript = (body: Record<string, unknown>): string[] =>
  ((body.input ?? []) as Part[]).flatMap((item) => {
    if (item.type === 'function_call') return ['assistant: [function_call]'];
    if (item.type === 'function_call_output') return ['user: [function_call_output]'];
    if (item.type === 'reasoning') return ['assistant: [reasoning]'];
    const content = item.content;
    const text = typeof content === 'string' ? content : ((content ?? []) as Part[]).map((p) => String(p.text ?? '')).join('');
    return [`${String(item.role)}: ${text}`];
  });

/** Whether the conversation's last entry is a tool result, in any of the three formats. */
export const endsWithToolResult = (request: NativeRequest): boolean => /\[(tool_result|functionResponse|function_call_output)\]$/.test(request.transcript.at(-1) ?? '');

interface Route {
  transcript(body: Record<string, unknown>): string[];
  refusal(model: string, body: Record<string, unknown>): Refusal | null;
  error(message: string, status: number): unknown;
  reply(body: Record<string, unknown>, model: string, reply: Exclude<NativeReply, { kind: 'error' }>, n: number): unknown;
}

/** The three APIs of one server; its prompt cache is its own. */
const routes = (cached = new Set<string>()): Record<NativeProviderName, Route> => ({
  anthropic: { transcript: anthropicTranscript, refusal: (_, body) => anthropicRefusal(body), error: anthropicErrorBody, reply: (body, model, reply, n) => anthropicBody(body, model, reply, n, cached) },
  google: { transcript: googleTranscript, refusal: geminiRefusal, error: geminiErrorBody, reply: (_, model, reply, n) => geminiBody(model, reply, n) },
  responses: { transcript: responsesTranscript, refusal: (_, body) => responsesRefusal(body), error: responsesErrorBody, reply: responsesBody },
});

export const startFakeNative = async (): Promise<FakeNative> => {
  const requests: NativeRequest[] = [];
  const refusals: FakeNative['refusals'] = [];
  const apis = routes();
  let handler: (request: NativeRequest) => NativeReply = () => ({ kind: 'error', status: 500, message: 'no handler' });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const url = req.url ?? '';
      const google = /\/models\/([^/:]+):generateContent$/.exec(url);
      const provider: NativeProviderName | null = google ? 'google' : url.endsWith('/messages') ? 'anthropic' : url.endsWith('/responses') ? 'responses' : null;
      if (provider === null) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${url}` } }));
        return;
      }
      const model = google ? google[1]! : String(body.model);
      const route = apis[provider];
      const request: NativeRequest = { provider, model, headers: req.headers, body, transcript: route.transcript(body) };
      requests.push(request);
      const refusal = route.refusal(model, body);
      if (refusal !== null) refusals.push({ request, message: refusal.message });
      const reply = refusal === null ? handler(request) : ({ kind: 'error', ...refusal } as const);
      if (reply.kind === 'error') {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(route.error(reply.message, reply.status)));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(route.reply(body, model, reply, requests.length)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    anthropicURL: `http://127.0.0.1:${port}/v1`,
    googleURL: `http://127.0.0.1:${port}/v1beta`,
    responsesURL: `http://127.0.0.1:${port}/v1`,
    requests,
    refusals,
    setHandler: (fn) => {
      handler = fn;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
};
