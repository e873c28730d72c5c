// Bearer authentication: with API_KEY configured, every request must carry `Authorization: Bearer <API_KEY>`.
import { createMiddleware } from 'hono/factory';
import { ApiError } from './errors.ts';

const digest = async (text: string): Promise<ArrayBuffer> => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));

/** Compares digests in constant time, so the key's length and prefix do not leak through timing. */
const sameSecret = async (given: string, expected: string): Promise<boolean> =>
  crypto.subtle.timingSafeEqual(await digest(given), await digest(expected));

export const requireApiKey = createMiddleware<{ Bindings: Env }>(async function requireApiKey(c, next) {
  const expected = c.env.API_KEY;
  if (expected) {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match || !(await sameSecret(match[1]!.trim(), expected))) {
      throw new ApiError(401, 'unauthorized', 'Missing or invalid API key (Authorization: Bearer <key>)');
    }
  }
  await next();
});
