// Server-sent events from a fetch response body, as an async iterator of events: the text/event-stream framing
// is eventsource-parser's.
import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface ServerEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | null;
}

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  // The DOM typings narrow TextDecoderStream to ArrayBuffer-backed chunks; any Uint8Array decodes.
  const text = body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>);
  const events = text.pipeThrough(new EventSourceParserStream());
  for await (const e of events) yield { event: e.event ?? 'message', data: e.data, id: e.id ?? null };
}
