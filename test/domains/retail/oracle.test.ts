// The oracle plays every retail task through the real orchestrator and evaluator: reward 1.0 on every task,
// failing gold actions exactly where the reference's fail too, and the gold DB hashes of spec Appendix C.2.
import { describe, expect, it } from 'vitest';
import { checkTask } from '../../../src/core/runner/check-data.ts';
import { pyDictHash } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { loaded, newEnvironment, sequentialIds, steppingClock } from '../../support/domains.ts';
import { RETAIL_GOLD_DB_HASHES } from './gold-hashes.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import { playGoldRun } from '../../../src/core/evaluator/gold-run.ts';

const { domain, data, guidelines } = await loaded('retail');

const check = (task: Task, goldActionErrors = domain.goldActionErrors) =>
  checkTask(task, {
    domain, data, guidelines, clock: steppingClock(), newId: sequentialIds(), knownIssues: {}, goldActionErrors,
  });

/** The DB after a task's gold actions, failing ones skipped (how the evaluator builds the gold DB). */
const goldHash = async (task: Task): Promise<string> => {
  const env = await newEnvironment('retail');
  playGoldRun(env, task);
  return pyDictHash(env.agentDb as PyValue);
};

describe('retail oracle', () => {
  it('covers all 114 tasks of Appendix C.2', () => {
    expect(data.tasks.map((t) => t.id)).toEqual([...RETAIL_GOLD_DB_HASHES.keys()]);
  });

  it.each(data.tasks.map((t) => [t.id, t] as const))('task %s: reward 1.0, gold DB hash as in the reference', async (_, task) => {
    const result = await check(task);
    expect(result.problems).toEqual([]);
    expect(result.reward).toBe(1);
    expect(result.goldErrors).toEqual(domain.goldActionErrors?.[task.id]?.errors ?? []);
    expect(await goldHash(task)).toBe(RETAIL_GOLD_DB_HASHES.get(task.id));
  });

  it('the check fails when a listed gold-action failure no longer happens, or an unlisted one does', async () => {
    const task2 = data.tasks.find((t) => t.id === '2')!;
    const unlisted = await check(task2, {});
    expect(unlisted.ok).toBe(false);
    expect(unlisted.problems).toEqual(['gold actions failed: get_product_details: Product not found']);
    const task0 = data.tasks.find((t) => t.id === '0')!;
    const wronglyListed = await check(task0, { '0': { errors: ['get_product_details: Product not found'], reason: 'test' } });
    expect(wronglyListed.ok).toBe(false);
    expect(wronglyListed.problems[0]).toMatch(/^gold actions listed to fail with \[get_product_details: Product not found\]/);
  });
});
