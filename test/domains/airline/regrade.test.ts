// Re-grading hand-written airline trajectories: `tau2-edge evaluate-trajs` reproduces every recorded verdict;
// and the CLI data check of the airline tasks.
// The fixture's reward_info values were produced by the reference's evaluator and airline tools, not by this
// engine; the tasks and policy come from the fetched data.
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

/** What each hand-written trajectory shows, and the reward the reference's rules give it (DB × COMMUNICATE). */
const VERDICTS: Record<string, number> = {
  't7-gold-path': 1, // every gold action; "$1,628" contains 1628 once commas are stripped from the message
  't7-not-communicated': 0, // right DB, but "1 628" is not "1628"
  't7-alternative-order': 1, // the independent writes in another order, without the reads
  't7-partial': 0, // one of three writes
  't19-gold': 1,
  't19-cancelled-twice': 0, // a second cancel appends refund rows again: another DB
  't19-transfer-instead': 0, // a transfer writes nothing; the gold DB has the cancellation
  't0-transfer': 1, // no gold actions: a transfer leaves the DB as the gold one
  't0-unrequested-certificate': 0, // a write the gold DB does not have
  't11-correct': 1, // the write and the amount 5244 said
  't11-calculator-but-not-said': 0, // a calculator result is a tool message, not the agent saying it
  't15-errors-then-correct': 1, // failing writes change nothing; a hallucinated tool is skipped on replay
  't12-correct': 1,
  't12-float-bags': 0, // total_baggages 2.0 is stored as sent: the DB hash differs from the gold 2
  't14-correct': 1, // cancel and book; 327, 1000 and 1786 said
  't14-one-amount-missing': 0, // 1000 never said
  't44-gold-agent-stop': 1, // many writes; the agent ends the conversation
  't17-correct': 1,
  't17-bags-on-certificate-refused': 0, // the bag update fails (certificate): the DB lacks it
  't19-too-many-errors': 0, // premature termination
  't19-max-steps': 0, // premature termination, even with the right write
};

const fixtureText = async (): Promise<string> => {
  let text = await readFile(new URL('../../fixtures/airline-results-regrade.json', import.meta.url), 'utf8');
  for (const file of ['user_simulator/simulation_guidelines.md', 'domains/airline/policy.md']) {
    text = text.replaceAll(`"{{${file}}}"`, JSON.stringify(await fileDataSource().readText(file)));
  }
  // Python JSON throughout, so 1.0 stays a float.
  const results = parsePyJson(text) as { tasks: PyValue[]; simulations: { task_id: string }[] };
  const ids = new Set(results.simulations.map((s) => s.task_id));
  const tasks = parsePyJson(await fileDataSource().readText('domains/airline/tasks.json')) as { id: string }[];
  results.tasks = tasks.filter((t) => ids.has(t.id)) as unknown as PyValue[];
  return dumpsPy(results as unknown as PyValue);
};

describe('airline re-grading (evaluate-trajs)', () => {
  it('the fixture records the verdicts the reference gives', async () => {
    const results = parsePyJson(await fixtureText()) as unknown as {
      simulations: { id: string; reward_info: { reward: PyFloat } }[];
    };
    const recorded = Object.fromEntries(
      results.simulations.map((s) => [s.id.replace('airline-regrade-', ''), toNumber(s.reward_info.reward)]),
    );
    expect(recorded).toEqual(VERDICTS);
  });

  it('reproduces every recorded reward and reward_info component, and reports a tampered one', async () => {
    const text = await fixtureText();
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-airline-'));
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
    results.simulations.find((s) => s.id === 'airline-regrade-t7-partial')!.reward_info.db_check.db_match = true;
    await writeFile(tampered, dumpsPy(results as unknown as PyValue));
    const bad = await capture(['evaluate-trajs', tampered]);
    expect(bad.lines.some((l) => l.startsWith('DIFF task 7') && l.includes('db_match: true -> false'))).toBe(true);
    expect(bad.code).toBe(1);
  });
});

describe('airline check-data (CLI)', () => {
  it('passes on all 50 tasks, none of them a known reference issue', async () => {
    const { code, lines } = await capture(['check-data', '--domain', 'airline']);
    expect(lines.filter((l) => l.startsWith('KNOWN') || l.startsWith('FAIL'))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^check-data airline: 50 \/ 50 tasks ok \(0 known reference issues\), 0 failed/);
    expect(code).toBe(0);
  });
});
