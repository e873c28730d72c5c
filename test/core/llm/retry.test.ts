// tryN, jittered backoff and the retryable-failure rules, with an injected sleep and random source.
import { describe, expect, it } from 'vitest';
import { isRetryable, isRetryableStatus, jitterBackoff, tryN } from '../../../src/core/llm/retry.ts';
import { InfraError } from '../../../src/core/llm/types.ts';

const recorder = () => {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
};

const failing = (failures: number, value = 'ok') => {
  const attempts: number[] = [];
  const fn = async (attempt: number): Promise<string> => {
    attempts.push(attempt);
    if (attempts.length <= failures) throw Object.assign(new Error(`failure ${attempts.length}`), { statusCode: 503 });
    return value;
  };
  return { attempts, fn };
};

describe('tryN', () => {
  it('returns the first success without sleeping', async () => {
    const { sleeps, sleep } = recorder();
    const { attempts, fn } = failing(0);
    await expect(tryN(4, fn, { sleep })).resolves.toBe('ok');
    expect(attempts).toEqual([1]);
    expect(sleeps).toEqual([]);
  });

  it('retries a retryable failure until it succeeds, numbering attempts from 1', async () => {
    const { sleeps, sleep } = recorder();
    const { attempts, fn } = failing(2);
    await expect(tryN(4, fn, { sleep })).resolves.toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up after n attempts and rethrows the last error', async () => {
    const { sleeps, sleep } = recorder();
    const { attempts, fn } = failing(10);
    await expect(tryN(3, fn, { sleep })).rejects.toThrow('failure 3');
    expect(attempts).toEqual([1, 2, 3]);
    expect(sleeps).toHaveLength(2);
  });

  it('does not retry when shouldRetry declines', async () => {
    const { sleeps, sleep } = recorder();
    const { attempts, fn } = failing(10);
    await expect(tryN(5, fn, { sleep, shouldRetry: () => false })).rejects.toThrow('failure 1');
    expect(attempts).toEqual([1]);
    expect(sleeps).toEqual([]);
  });

  it('by default retries only retryable errors (a 400 is thrown at once)', async () => {
    const { sleep } = recorder();
    let calls = 0;
    const badRequest = async (): Promise<never> => {
      calls++;
      throw Object.assign(new Error('bad request'), { statusCode: 400 });
    };
    await expect(tryN(4, badRequest, { sleep })).rejects.toThrow('bad request');
    expect(calls).toBe(1);
  });

  it('waits baseMs, then doubles, capped at maxMs (no jitter when random gives 0)', async () => {
    const { sleeps, sleep } = recorder();
    const { fn } = failing(10);
    await expect(tryN(6, fn, { sleep, baseMs: 100, maxMs: 1000, random: () => 0 })).rejects.toThrow();
    expect(sleeps).toEqual([100, 200, 400, 800, 1000]);
  });

  it('waits what the failure asks for when delayMs gives it, else the backoff', async () => {
    const { sleeps, sleep } = recorder();
    const { fn } = failing(10);
    const delayMs = (_err: unknown, attempt: number) => (attempt === 2 ? null : attempt * 7);
    await expect(tryN(4, fn, { sleep, delayMs, baseMs: 100, random: () => 0 })).rejects.toThrow();
    expect(sleeps).toEqual([7, 200, 21]);
  });

  it('reports each retry before waiting', async () => {
    const { sleep } = recorder();
    const { fn } = failing(2);
    const seen: Array<[string, number, number]> = [];
    await tryN(3, fn, { sleep, random: () => 0, onRetry: (err, attempt, delay) => seen.push([(err as Error).message, attempt, delay]) });
    expect(seen).toEqual([
      ['failure 1', 1, 500],
      ['failure 2', 2, 1000],
    ]);
  });

  it('rejects a non-positive attempt count', async () => {
    await expect(tryN(0, async () => 'x')).rejects.toThrow(RangeError);
  });
});

describe('jitterBackoff', () => {
  it('shortens the exponential delay by at most a quarter', () => {
    expect(jitterBackoff(1, 500, 8000, () => 0)).toBe(500);
    expect(jitterBackoff(1, 500, 8000, () => 0.999999)).toBe(375);
    expect(jitterBackoff(3, 500, 8000, () => 0.5)).toBe(1750);
    expect(jitterBackoff(10, 500, 8000, () => 0)).toBe(8000);
  });

  it('stays within [0.75, 1] of the ceiling for random jitter', () => {
    for (let retry = 1; retry <= 6; retry++) {
      const ceiling = Math.min(8000, 500 * 2 ** (retry - 1));
      const delay = jitterBackoff(retry);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(0.75 * ceiling));
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
});

describe('isRetryable', () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 529])('HTTP %i is retryable', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
    expect(isRetryable({ statusCode: status })).toBe(true);
  });

  it.each([400, 401, 403, 404, 422])('HTTP %i is not retryable', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
    expect(isRetryable({ status })).toBe(false);
  });

  it('timeouts and aborts are retryable', () => {
    expect(isRetryable(new DOMException('The operation timed out.', 'TimeoutError'))).toBe(true);
    expect(isRetryable(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe(true);
  });

  it('network failures are retryable, found through the cause chain', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(isRetryable(new TypeError('fetch failed', { cause: refused }))).toBe(true);
    expect(isRetryable(new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }))).toBe(true);
    // workerd's fetch, when the connection closes under the request.
    expect(isRetryable(new Error('Network connection lost.'))).toBe(true);
  });

  it('an InfraError decides by its own flag', () => {
    expect(isRetryable(new InfraError('x', { retryable: true }))).toBe(true);
    expect(isRetryable(new InfraError('x', { retryable: false }))).toBe(false);
  });

  it('programming errors are not retryable', () => {
    expect(isRetryable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isRetryable(new Error('plain'))).toBe(false);
    expect(isRetryable('a string')).toBe(false);
  });
});
