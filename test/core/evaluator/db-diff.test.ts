// The final DB's differences from the gold one agree with the DB check: none exactly where the reference's
// verdict is a match, over the airline re-grade fixture's trajectories; and they name the changed paths.
import { describe, expect, it } from 'vitest';
import { dbDifferences } from '../../../src/core/evaluator/db-diff.ts';
import { parsePyJson } from '../../../src/core/py/index.ts';
import { ResultsSchema } from '../../../src/core/schemas/simulation.ts';
import { loaded } from '../../support/domains.ts';
import { regradeFixtureText } from '../../support/regrade.ts';

const results = ResultsSchema.parse(
  parsePyJson(await regradeFixtureText({ domain: 'airline', fixture: new URL('../../fixtures/airline-results-regrade.json', import.meta.url), policy: 'domains/airline/policy.md' })),
);
const { domain, data } = await loaded('airline');
const ctx = { domain, data, solo: false, now: () => '2024-05-15T15:00:00' };

describe('DB differences from gold', () => {
  it('are empty exactly for the simulations whose DB check matched', () => {
    const checked = results.simulations.filter((s) => s.reward_info?.db_check);
    expect(checked.length).toBeGreaterThan(5);
    const verdicts = checked.map((s) => {
      const task = results.tasks.find((t) => t.id === s.task_id)!;
      return [s.id, dbDifferences(task, s.messages ?? [], ctx).length === 0] as const;
    });
    expect(verdicts).toEqual(checked.map((s) => [s.id, s.reward_info!.db_check!.db_match] as const));
    expect(verdicts.some(([, match]) => !match)).toBe(true);
  });

  it('name each changed path with the gold and the final value', () => {
    const mismatch = results.simulations.find((s) => s.reward_info?.db_check?.db_match === false)!;
    const task = results.tasks.find((t) => t.id === mismatch.task_id)!;
    const differences = dbDifferences(task, mismatch.messages ?? [], ctx);
    for (const d of differences) {
      expect(d.db).toBe('agent');
      expect(d.path.length).toBeGreaterThan(0);
      expect(d.gold).not.toBe(d.predicted);
    }
    // With no trajectory at all, every gold action's change is missing from the final DB.
    const untouched = dbDifferences(task, [], ctx);
    expect(untouched.length).toBeGreaterThan(0);
    expect(untouched.every((d) => d.gold !== null || d.predicted !== null)).toBe(true);
  });
});
