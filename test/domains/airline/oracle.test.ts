// Every airline task: its gold DB hash equals the reference's (spec Appendix C.1), and the oracle, playing the
// gold actions through the real orchestrator and evaluator, scores 1.0. No airline task is a known reference
// issue: the list is empty, and the check would fail on a listed task that passes.
import { describe, expect, it } from 'vitest';
import { checkTask } from '../../../src/core/runner/check-data.ts';
import { pyDictHash } from '../../../src/core/py/index.ts';
import { dataDir } from '../../../src/cli/data.ts';
import { loaded, newEnvironment, sequentialIds, steppingClock } from '../../support/domains.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = readFileSync(path.join(here, '../../fixtures/airline-gold-hashes.txt'), 'utf8')
  .trim()
  .split('\n')
  .map((r) => r.split(' ') as [string, string]);
const { domain, data, guidelines } = await loaded('airline');

describe('airline tasks', () => {
  it('all 50 load; base is every task, train and test split it', () => {
    const splits = JSON.parse(readFileSync(path.join(dataDir(), 'domains/airline/split_tasks.json'), 'utf8')) as Record<string, string[]>;
    expect(data.tasks).toHaveLength(50);
    expect(new Set(splits.base)).toEqual(new Set(data.tasks.map((t) => t.id)));
    expect([splits.train!.length, splits.test!.length]).toEqual([30, 20]);
    expect(new Set([...splits.train!, ...splits.test!])).toEqual(new Set(splits.base));
    expect(domain.knownIssues ?? {}).toEqual({});
  });

  it('the Appendix C.1 list covers every task', () => {
    expect(rows.map(([id]) => id)).toEqual(data.tasks.map((t) => t.id));
  });

  it.each(rows)('task %s: gold DB hash %s', async (taskId, hash) => {
    const task = data.tasks.find((t) => t.id === taskId)!;
    const env = await newEnvironment('airline');
    for (const action of task.evaluation_criteria!.actions ?? []) {
      // Every airline gold action succeeds in the reference (none is listed with `!`); so must ours.
      expect(env.makeToolCall(action.name, action.requestor, action.arguments)).toBeTypeOf('string');
    }
    expect(pyDictHash(env.agentDb as never)).toBe(hash);
  });

  it.each(data.tasks.map((t) => [t.id, t] as const))('task %s: the oracle scores 1.0', async (_, task) => {
    const result = await checkTask(task, {
      domain, data, guidelines, clock: steppingClock(), newId: sequentialIds(), knownIssues: domain.knownIssues ?? {},
    });
    expect(result.problems).toEqual([]);
    expect(result.knownIssue).toBeNull();
    expect(result.reward).toBe(1);
  });
});
