// Request and response bodies in Python JSON: parsed with parsePyJson (so `0.0` stays a float) and validated
// by the API's zod schemas; responses written with dumpsPy.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { invalidRequest, zodIssues } from './errors.ts';

export interface ParsedBody<T> {
  readonly value: T;
  /** The body text as received (for the Idempotency-Key check). */
  readonly text: string;
}

export const readBody = async <S extends z.ZodType>(c: Context, schema: S): Promise<ParsedBody<z.infer<S>>> => {
  const text = await c.req.text();
  let json: unknown;
  try {
    json = parsePyJson(text);
  } catch (error) {
    throw invalidRequest([{ path: '', message: `Body is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw invalidRequest(zodIssues(result.error));
  return { value: result.data, text };
};

export const pyJson = (c: Context, value: unknown, status: ContentfulStatusCode = 200): Response =>
  c.body(dumpsPy(value as PyInput), status, { 'content-type': 'application/json; charset=utf-8' });
