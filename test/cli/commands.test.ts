// The command line: check-data and evaluate-trajs on real data, through the same entry point users run.
import { describe, expect, it } from 'vitest';
import { capture } from '../support/cli.ts';
import { evaluateTampered, evaluateTrajs, regradeFixtureText } from '../support/regrade.ts';

describe('tau2-edge CLI', () => {
  it('check-data --domain mock passes, naming the known reference issues', async () => {
    const { code, lines } = await capture(['check-data', '--domain', 'mock']);
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(/^check-data mock: 10 \/ 10 tasks ok \(2 known reference issues\), 0 failed/);
  });

  it("domain mock prints the policy and every agent and user tool with its parameters", async () => {
    const { code, text } = await capture(['domain', 'mock']);
    expect(code).toBe(0);
    expect(text).toContain('# mock: policy\n\n# Mock Domain Policy');
    expect(text).toContain('- create_task(user_id, title, description?)\n  Create a new task for a user.');
    expect(text).toMatch(/# mock: user tools\n\n- check_notifications\(\)/);
  });

  it('tasks --domain mock --task-split-name base prints the ten tasks as JSON', async () => {
    const { lines } = await capture(['tasks', '--domain', 'mock', '--task-split-name', 'base']);
    expect(JSON.parse(lines.join('\n'))).toHaveLength(10);
  });

  it('evaluate-trajs re-grades a reference results file: agree 1 / 1, and reports a tampered verdict', async () => {
    const text = await regradeFixtureText({
      domain: 'mock',
      fixture: new URL('../fixtures/mock-results-b3.json', import.meta.url),
      policy: 'domains/mock/policy.md',
    });
    const ok = await evaluateTrajs('mock', text);
    expect(ok.lines.at(-1)).toBe('agree 1 / 1');
    expect(ok.code).toBe(0);

    // The one simulation's recorded db_match (true) flipped to false.
    const bad = await evaluateTampered('mock', text, '9c2afccd-1c37-4460-8693-e74cc57b5ba3');
    expect(bad.lines.some((l) => l.startsWith('DIFF task create_task_1') && l.includes('db_match: false -> true'))).toBe(true);
    expect(bad.lines.at(-1)).toBe('agree 0 / 1');
    expect(bad.code).toBe(1);
  });
});
