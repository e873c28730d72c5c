// The runtime out of a resource answers 503 `overloaded` with Retry-After, never 500: an object over its load,
// no file left to open an object's database with (the local runtime at the open-file limit), a failure inside
// the runtime. A defect of the code is still a 500.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { onError } from '../../src/worker/api/errors.ts';

const failing = (error: Error) => new Hono().get('/', () => { throw error; }).onError(onError);

const overloadedObject = Object.assign(new Error('Durable Object is overloaded. Too many requests queued.'), { overloaded: true, retryable: false });

describe('an error of the runtime out of a resource', () => {
  it.each([
    ['a database the runtime could not open', new Error('SQLite failed: unable to open database file: SQLITE_CANTOPEN')],
    ['no file descriptor left', new Error('accept(): Too many open files')],
    // How a new object's SQLITE_CANTOPEN at the open-file limit reaches the code from workerd.
    ['a failure inside the runtime, reported by reference', new Error('internal error; reference = 7eup2hq6572k0rdpscb7qjh6')],
    ['an object over its load', overloadedObject],
  ])('%s answers 503 overloaded with Retry-After', async (_, error) => {
    const response = await failing(error).request('/');
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('overloaded');
  });

  it('while a defect is still a 500', async () => {
    const response = await failing(new TypeError("Cannot read properties of undefined (reading 'id')")).request('/');
    expect(response.status).toBe(500);
    expect(response.headers.get('Retry-After')).toBeNull();
  });
});
