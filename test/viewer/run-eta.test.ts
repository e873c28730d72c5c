// The run page's ETA: the time left at the pace so far, only while the run runs and once something finished.
import { describe, expect, it } from 'vitest';
import { etaSeconds } from '../../src/viewer/pages/run.ts';
import type { Run } from '../../src/api/index.ts';

const run = (status: Run['status'], done: number, total: number): Run =>
  ({
    status,
    created_at: '2026-01-01T00:00:00.000Z',
    counts: { total, done, pending: total - done, running: 0, passed: 0, failed: done, infra_error: 0, cancelled: 0 },
  }) as unknown as Run;

describe('ETA', () => {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  it('extrapolates the pace so far', () => {
    // 10 of 40 in 60 s: 30 more take 180 s.
    expect(etaSeconds(run('running', 10, 40), start + 60_000)).toBeCloseTo(180);
  });
  it('is unknown before the first simulation and for a finished run', () => {
    expect(etaSeconds(run('running', 0, 40), start + 60_000)).toBeNull();
    expect(etaSeconds(run('completed', 40, 40), start + 60_000)).toBeNull();
  });
});
