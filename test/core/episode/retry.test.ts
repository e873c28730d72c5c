// The whole-simulation retry rule: up to max_retries more attempts, none after a provider's refusal or once stopped.
import { describe, expect, it } from 'vitest';
import { retriesAfter } from '../../../src/core/episode/retry.ts';

const failed = { attempt: 1, maxRetries: 3, refused: false, stopped: false };

describe('retriesAfter', () => {
  it('retries attempts 1..max_retries and ends after attempt max_retries + 1', () => {
    expect([1, 2, 3, 4].map((attempt) => retriesAfter({ ...failed, attempt }))).toEqual([true, true, true, false]);
    expect(retriesAfter({ ...failed, maxRetries: 0 })).toBe(false);
  });

  it('never retries a provider refusal or a stopped episode', () => {
    expect(retriesAfter({ ...failed, refused: true })).toBe(false);
    expect(retriesAfter({ ...failed, stopped: true })).toBe(false);
  });
});
