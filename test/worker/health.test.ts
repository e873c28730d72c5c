// Health endpoint of the Worker, called through the Worker's own default export in the Workers runtime.
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

describe('GET /v1/health', () => {
  it('answers 200 {"status":"ok"} as JSON', async () => {
    const response = await exports.default.fetch('http://tau2-edge.test/v1/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 404 for an unknown path', async () => {
    const response = await exports.default.fetch('http://tau2-edge.test/v1/nope');
    expect(response.status).toBe(404);
  });
});
