// Server-sent event framing as the run event stream uses it.
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/client/sse.ts';

const streamOf = (text: string, chunk: number): ReadableStream<Uint8Array> => {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, i + chunk));
      controller.close();
    },
  });
};

const read = async (body: ReadableStream<Uint8Array>) => {
  const events = [];
  for await (const e of readEvents(body)) events.push(e);
  return events;
};

describe('server-sent events', () => {
  it('reads events across arbitrary chunk boundaries and CRLF line ends', async () => {
    const text = 'event: simulation\r\ndata: {"x": 1}\r\nid: 1\r\n\r\nevent: status\ndata: done\n\n';
    expect(await read(streamOf(text, 7))).toEqual([
      { event: 'simulation', data: '{"x": 1}', id: '1' },
      { event: 'status', data: 'done', id: null },
    ]);
  });

  it('ignores comments (heartbeats), joins data lines and drops an unfinished last event', async () => {
    const text = ': heartbeat\n\nid: 3\nevent: status\ndata: {"a":\ndata: 1}\n\nevent: simulation\ndata: {"b"';
    expect(await read(streamOf(text, 5))).toEqual([{ event: 'status', data: '{"a":\n1}', id: '3' }]);
  });
});
