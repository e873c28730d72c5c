// A fake OpenAI-compatible embeddings endpoint on 127.0.0.1: deterministic bag-of-words vectors (texts that
// share words point the same way), every request captured, and scripted HTTP failures served first.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_DIMENSION = 64;

export interface FakeEmbeddingsOptions {
  /** Vector length; text-embedding-3-large's is 3072. */
  readonly dimension?: number;
}

export interface EmbeddingRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model: string; input: string[]; encoding_format?: string; [key: string]: unknown };
}

export interface FakeEmbeddings {
  readonly baseURL: string;
  readonly requests: EmbeddingRequest[];
  /** The next `count` requests are answered with this HTTP status. */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
}

const bucket = (token: string, dimension: number): number => {
  let hash = 2166136261;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 16777619);
  return (hash >>> 0) % dimension;
};

/** The vector the fake returns for a text: word counts hashed into `dimension` buckets. */
export const fakeVector = (text: string, dimension = FAKE_DIMENSION): number[] => {
  const vector = new Array<number>(dimension).fill(0);
  for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) vector[bucket(token, dimension)]! += 1;
  return vector;
};

export const startFakeEmbeddings = async (options: FakeEmbeddingsOptions = {}): Promise<FakeEmbeddings> => {
  const dimension = options.dimension ?? FAKE_DIMENSION;
  const requests: EmbeddingRequest[] = [];
  const failures: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as EmbeddingRequest['body'];
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const status = failures.shift();
      res.setHeader('content-type', 'application/json');
      if (status !== undefined) {
        res.statusCode = status;
        res.end(JSON.stringify({ error: { message: `scripted HTTP ${status}`, type: 'server_error' } }));
        return;
      }
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, dimension) }));
      res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
};
