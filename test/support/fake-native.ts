// Scripted Anthropic (Messages API) and Google (Gemini generateContent) servers on 127.0.0.1 for tests: each
// request is captured, and a handler answers it with text, a tool call or an HTTP error, in the provider's own
// wire format.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type NativeReply =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool'; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: 'error'; readonly status: number; readonly message: string };

export interface NativeRequest {
  readonly provider: 'anthropic' | 'google';
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

const anthropicBody = (model: string, reply: Exclude<NativeReply, { kind: 'error' }>, n: number) => ({
  id: `msg_${n}`,
  type: 'message',
  role: 'assistant',
  model,
  content: reply.kind === 'text' ? [{ type: 'text', text: reply.text }] : [{ type: 'tool_use', id: `toolu_${n}`, name: reply.name, input: reply.input }],
  stop_reason: reply.kind === 'text' ? 'end_turn' : 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 6 },
});

const googleBody = (model: string, reply: Exclude<NativeReply, { kind: 'error' }>) => ({
  candidates: [
    {
      content: { role: 'model', parts: reply.kind === 'text' ? [{ text: reply.text }] : [{ functionCall: { name: reply.name, args: reply.input } }] },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
  modelVersion: model,
});

export const startFakeNative = async (): Promise<FakeNative> => {
  const requests: NativeRequest[] = [];
  let handler: (request: NativeRequest) => NativeReply = () => ({ kind: 'error', status: 500, message: 'no handler' });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const url = req.url ?? '';
      const google = /\/models\/([^/:]+):generateContent$/.exec(url);
      const provider = google ? 'google' : url.endsWith('/messages') ? 'anthropic' : null;
      if (provider === null) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${url}` } }));
        return;
      }
      const model = google ? google[1]! : String(body.model);
      const request: NativeRequest = { provider, model, headers: req.headers, body, transcript: provider === 'google' ? googleTranscript(body) : anthropicTranscript(body) };
      requests.push(request);
      const reply = handler(request);
      if (reply.kind === 'error') {
        const error = provider === 'anthropic' ? { type: 'error', error: { type: 'api_error', message: reply.message } } : { error: { code: reply.status, message: reply.message, status: 'ERROR' } };
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const out = provider === 'anthropic' ? anthropicBody(model, reply, requests.length) : googleBody(model, reply);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    anthropicURL: `http://127.0.0.1:${port}/v1`,
    googleURL: `http://127.0.0.1:${port}/v1beta`,
    requests,
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
