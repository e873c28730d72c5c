// Server-sent event framing as the run event stream uses it.
import { describe, expect, it } from 'vitest';
import { parseEvents, readEvents } from '../../src/client/sse.ts';

describe('server-sent events', () => {
  it('splits complete events, keeps the unfinished rest, ignores comments, joins data lines', () => {
    const { events, rest } = parseEvents(': keep-alive\n\nid: 3\nevent: status\ndata: {"a":\ndata: 1}\n\nevent: simulation\ndata: {"b"');
    expect(events).toEqual([{ event: 'status', data: '{"a":\n1}', id: '3' }]);
    expect(rest).toBe('event: simulation\ndata: {"b"');
  });

  it('reads events across arbitrary chunk boundaries and CRLF line ends', async () => {
    const text = 'event: simulation\r\ndata: {"x": 1}\r\nid: 1\r\n\r\nevent: status\ndata: done\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const events = [];
    for await (const e of readEvents(body)) events.push(e);
    expect(events).toEqual([
      { event: 'simulation', data: '{"x": 1}', id: '1' },
      { event: 'status', data: 'done', id: null },
    ]);
  });
});
