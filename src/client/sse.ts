// Server-sent events from a fetch response body: the text/event-stream framing (event, data, id; blank line
// ends an event; comment lines ignored), as an async iterator of events.

export interface ServerEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | null;
}

/** Splits an event-stream text into complete events; returns them and the unfinished rest. */
export const parseEvents = (buffer: string): { events: ServerEvent[]; rest: string } => {
  const events: ServerEvent[] = [];
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length > 0) events.push({ event, data: data.join('\n'), id });
  }
  return { events, rest };
};

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    const { events, rest } = parseEvents(buffer);
    buffer = rest;
    yield* events;
  }
}
