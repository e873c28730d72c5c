// What MCP's Streamable HTTP transport asks of a server that answers each POST at once: the protocol version
// header, and a request's answer as JSON or, to a client that accepts only that, as a one-event SSE stream.
import { PROTOCOL_VERSIONS } from './server.ts';

export const PROTOCOL_HEADER = 'mcp-protocol-version';

/** Why a protocol version header cannot be served, or null when it can (or is absent). */
export const protocolVersionIssue = (version: string | undefined): string | null =>
  version === undefined || PROTOCOL_VERSIONS.some((v) => v === version) ? null : `${PROTOCOL_HEADER}: ${version} is not served; use one of ${PROTOCOL_VERSIONS.join(', ')}`;

/** A client that accepts an event stream but not JSON gets its answer as one SSE event. */
export const wantsEventStream = (accept: string | undefined): boolean => {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('text/event-stream') && !types.some((t) => t === 'application/json' || t === 'application/*' || t === '*/*');
};

/** The answer's body and content type for a client with that Accept header. */
export const answerBody = (response: string, accept: string | undefined): { body: string; headers: Record<string, string> } =>
  wantsEventStream(accept)
    ? { body: `event: message\ndata: ${response}\n\n`, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } }
    : { body: response, headers: { 'content-type': 'application/json; charset=utf-8' } };
