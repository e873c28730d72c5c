// Re-grading hand-written retail trajectories: `tau2-edge evaluate-trajs` reproduces every recorded verdict;
// and the CLI data check of the retail tasks.
// The fixture's reward_info values were produced by the reference's evaluator and retail tools (LLM-judge
// verdicts scripted per simulation), not by this engine; the tasks and policy come from the fetched data.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { fileDataSource } from '../../../src/cli/data.ts';
import { dumpsPy, parsePyJson, toNumber } from '../../../src/core/py/index.ts';
import type { PyFloat, PyValue } from '../../../src/core/py/index.ts';

const capture = async (argv: string[]): Promise<{ code: number; lines: string[] }> => {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await main(argv), lines };
  } finally {
    process.stdout.write = write;
  }
};

/** What each hand-written trajectory shows, and the reward the reference's rules give it. */
const VERDICTS: Record<string, number> = {
  't33-gold-path': 1, // every gold action, reads included
  't33-alternative-path': 1, // other reads, same final DB: only the DB counts (action checks are informational)
  't33-wrong-zip': 0, // a wrong write
  't33-errors-then-correct': 1, // failed lookups, a hallucinated tool, bad arguments, then the right write
  't81-both-cancels-reversed': 1, // independent writes in another order
  't81-partial': 0, // one of two cancellations
  't81-wrong-reason': 0, // right order, wrong cancel reason
  't76-correct-nl-met': 1, // DB right and the judge's verdict met
  't76-correct-nl-not-met': 0, // DB right, the judge's verdict not met
  't36-correct': 1, // one multi-item modification (every item gets the last new item's price and options)
  't36-one-at-a-time': 0, // the second modification is refused, the DB differs
  't22-correct': 1, // the default address changed twice, in the gold order
  't22-wrong-order': 0, // the same writes, in an order that leaves another final address
  't105-failed-exchange-transfer': 0, // the gold exchange fails in the reference too: DB right, judge not met
  't105-transfer-nl-met': 1, // a transfer to a human agent, nothing written
  't105-other-exchange': 0, // a write the gold DB does not have
  't57-no-write': 1, // a task without gold actions: reads only
  't57-unrequested-write': 0, // a task without gold actions: a write
  't40-correct-agent-stop': 1, // the agent ends the conversation
  't88-too-many-errors': 0, // premature termination
  't88-max-steps': 0, // premature termination, even with the right write
  't88-correct': 1,
};

const fixtureText = async (): Promise<string> => {
  let text = await readFile(new URL('../../fixtures/retail-results-regrade.json', import.meta.url), 'utf8');
  for (const file of ['user_simulator/simulation_guidelines.md', 'domains/retail/policy.md']) {
    text = text.replaceAll(`"{{${file}}}"`, JSON.stringify(await fileDataSource().readText(file)));
  }
  // Python JSON throughout, so 1.0 stays a float.
  const results = parsePyJson(text) as { tasks: PyValue[]; simulations: { task_id: string }[] };
  const ids = new Set(results.simulations.map((s) => s.task_id));
  const tasks = parsePyJson(await fileDataSource().readText('domains/retail/tasks.json')) as { id: string }[];
  results.tasks = tasks.filter((t) => ids.has(t.id)) as unknown as PyValue[];
  return dumpsPy(results as unknown as PyValue);
};

describe('retail re-grading (evaluate-trajs)', () => {
  it('the fixture records the verdicts the reference gives', async () => {
    const results = parsePyJson(await fixtureText()) as unknown as {
      simulations: { id: string; reward_info: { reward: PyFloat } }[];
    };
    const recorded = Object.fromEntries(
      results.simulations.map((s) => [s.id.replace('retail-regrade-', ''), toNumber(s.reward_info.reward)]),
    );
    expect(recorded).toEqual(VERDICTS);
  });

  it('reproduces every recorded reward and reward_info component, and reports a tampered one', async () => {
    const text = await fixtureText();
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-retail-'));
    const good = path.join(dir, 'good.json');
    await writeFile(good, text);
    const ok = await capture(['evaluate-trajs', good, '--out', path.join(dir, 'out.json')]);
    expect(ok.lines.filter((l) => l.startsWith('DIFF') || l.startsWith('WARN'))).toEqual([]);
    expect(ok.lines.at(-1)).toBe(`agree ${Object.keys(VERDICTS).length} / ${Object.keys(VERDICTS).length}`);
    expect(ok.code).toBe(0);
    // The whole reward_info, notes and per-check details included, is what the reference recorded.
    const rewardInfos = (value: unknown) =>
      (value as { simulations: { reward_info: PyValue }[] }).simulations.map((s) => dumpsPy(s.reward_info));
    const regraded = parsePyJson(await readFile(path.join(dir, 'out.json'), 'utf8'));
    expect(rewardInfos(regraded)).toEqual(rewardInfos(parsePyJson(text)));

    const tampered = path.join(dir, 'tampered.json');
    const results = parsePyJson(text) as { simulations: { id: string; reward_info: { db_check: { db_match: boolean } } }[] };
    results.simulations.find((s) => s.id === 'retail-regrade-t81-partial')!.reward_info.db_check.db_match = true;
    await writeFile(tampered, dumpsPy(results as unknown as PyValue));
    const bad = await capture(['evaluate-trajs', tampered]);
    expect(bad.lines.some((l) => l.startsWith('DIFF task 81') && l.includes('db_match: true -> false'))).toBe(true);
    expect(bad.code).toBe(1);
  });
});

describe('retail check-data (CLI)', () => {
  it('passes on all 114 tasks, naming the 15 whose gold actions fail in the reference too', async () => {
    const { code, lines } = await capture(['check-data', '--domain', 'retail']);
    expect(lines.filter((l) => l.startsWith('KNOWN')).map((l) => l.split(':')[0])).toEqual(
      ['2', '3', '4', '35', '37', '38', '39', '46', '47', '54', '55', '64', '67', '68', '105'].map((id) => `KNOWN ${id}`),
    );
    expect(lines.at(-1)).toMatch(
      /^check-data retail: 114 \/ 114 tasks ok \(0 known reference issues, 15 with gold actions failing in the reference too\), 0 failed/,
    );
    expect(code).toBe(0);
  });
});
