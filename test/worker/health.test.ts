// Health endpoint of the Worker, called through the Worker's own default export in the Workers runtime.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call } from './support/api.ts';

describe('GET /v1/health', () => {
  it('answers 200 {"status":"ok"} and the commit deployed as JSON, without an API key', async () => {
    const response = await call('/v1/health', { anonymous: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok', commit: env.GIT_COMMIT });
  });

  it('answers 404 not_found for an unknown path', async () => {
    const response = await call('/v1/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /v1/nope' } });
  });
});
