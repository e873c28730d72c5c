// Request and response bodies in Python JSON: parsed with parsePyJson (so `0.0` stays a float) and validated
// by the API's zod schemas; responses written with dumpsPy. Every body route reads its body here, strictly:
// `Content-Type: application/json` only (415 otherwise), UTF-8 as sent (a BOM or invalid bytes are refused, not
// dropped by the decoder) and no key given twice in one object (client-json.ts: the rule WebSocket messages follow too).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { ApiError, invalidRequest, zodIssues } from './errors.ts';
import { parseClientJson } from '../client-json.ts';

export interface ParsedBody<T> {
  readonly value: T;
  /** The body text as received (for the Idempotency-Key check). */
  readonly text: string;
}

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;
/** Keeps a BOM in the text (Response.text() would drop it) and throws on bytes that are not UTF-8. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const bodyText = async (c: Context): Promise<string> => {
  if (!JSON_MEDIA_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as JSON, with Content-Type: application/json');
  }
  try {
    return utf8.decode(await c.req.arrayBuffer());
  } catch {
    throw invalidRequest([{ path: '', message: 'Body is not valid UTF-8' }]);
  }
};

export const readBody = async <S extends z.ZodType>(c: Context, schema: S): Promise<ParsedBody<z.infer<S>>> => {
  const text = await bodyText(c);
  const json = parseClientJson(text);
  if (!json.ok) throw invalidRequest([json.fault === 'syntax' ? { path: '', message: `Body is not valid JSON: ${json.issue.message}` } : json.issue]);
  return { value: parsed(schema, json.value), text };
};

/** A body read as JSON, held to the schema of its kind (a body of several kinds is told apart first). */
export const parsed = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidRequest(zodIssues(result.error));
  return result.data;
};

export const pyJson = (c: Context, value: unknown, status: ContentfulStatusCode = 200): Response =>
  c.body(dumpsPy(value as PyInput), status, { 'content-type': 'application/json; charset=utf-8' });
