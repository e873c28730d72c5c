// Every banking_knowledge task: its gold DB hash equals the reference's (test/fixtures/banking-gold-hashes.txt),
// and the oracle, playing the gold actions through the real orchestrator and evaluator, scores 1.0 with exactly
// the refusals listed in domains/banking_knowledge/known-issues.ts (check-data's problems). Every tool a gold
// action names, discoverable ones included, is in the toolkits.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { checkTask } from '../../../src/core/runner/check-data.ts';
import { playGoldRun } from '../../../src/core/evaluator/gold-run.ts';
import { episodeDomain } from '../../../src/core/environment/episode-domain.ts';
import { Environment } from '../../../src/core/environment/environment.ts';
import { isoTimestamp } from '../../../src/core/orchestrator/clock.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import { loaded, sequentialIds, steppingClock } from '../../support/domains.ts';
import { bankingDbHash } from './helpers.ts';

const rows = readFileSync(new URL('../../fixtures/banking-gold-hashes.txt', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((r) => r.split(' ') as [string, string]);
const { domain, data, guidelines } = await loaded('banking_knowledge');

/** The gold actions' tools, discoverable ones by the name they are called with. */
const goldToolNames = (task: Task): string[] =>
  (task.evaluation_criteria?.actions ?? []).map((a) =>
    a.name === 'call_discoverable_agent_tool' || a.name === 'unlock_discoverable_agent_tool'
      ? String(a.arguments.agent_tool_name)
      : a.name === 'call_discoverable_user_tool'
        ? String(a.arguments.discoverable_tool_name)
        : a.name,
  );

const cases = rows.map(([taskId, hash]) => ({ taskId, task: data.tasks.find((t) => t.id === taskId)!, hash }));

describe('banking_knowledge tasks', () => {
  it('all 97 load from the task files in sorted order; the hash list covers every task', () => {
    expect(data.tasks).toHaveLength(97);
    expect(data.tasks.map((t) => t.id)).toEqual([...data.tasks.map((t) => t.id)].sort());
    expect(rows.map(([id]) => id)).toEqual(data.tasks.map((t) => t.id));
    expect(data.splits).toBeNull();
  });

  it("every tool the gold actions name is in this build's toolkits", () => {
    const have = new Set([...Object.keys(domain.agentToolkit.tools), ...Object.keys(domain.userToolkit?.tools ?? {})]);
    const missing = [...new Set(data.tasks.flatMap(goldToolNames))].filter((name) => !have.has(name));
    expect(missing).toEqual([]);
  });

  for (const c of cases) {
    it(`task ${c.taskId}: gold DB hash`, () => {
      const view = episodeDomain(domain, data, c.task, { retrievalConfig: null, retrievalConfigKwargs: null });
      const clock = steppingClock();
      const env = new Environment(view.domain, view.data, { now: () => isoTimestamp(clock.nowMs()) });
      playGoldRun(env, c.task);
      expect(bankingDbHash(env)).toBe(c.hash);
    });

    it(`task ${c.taskId}: the oracle scores 1.0`, async () => {
      const result = await checkTask(c.task, {
        domain, data, guidelines, clock: steppingClock(), newId: sequentialIds(), knownIssues: domain.knownIssues ?? {},
      });
      expect(result.problems).toEqual([]);
      expect(result.reward).toBe(1);
    });
  }
});
