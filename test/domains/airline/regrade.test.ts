// Re-grading hand-written airline trajectories: `tau2-edge evaluate-trajs` reproduces every recorded verdict;
// and the CLI data check of the airline tasks.
// The fixture's reward_info values were produced by the reference's evaluator and airline tools, not by this
// engine; the tasks and policy come from the fetched data.
import { describe, expect, it } from 'vitest';
import { capture } from '../../support/cli.ts';
import { expectRecordedVerdicts, expectRegradeAgrees } from '../../support/regrade.ts';

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

const FIXTURE = {
  domain: 'airline',
  fixture: new URL('../../fixtures/airline-results-regrade.json', import.meta.url),
  policy: 'domains/airline/policy.md',
};

describe('airline re-grading (evaluate-trajs)', () => {
  it('the fixture records the verdicts the reference gives', () => expectRecordedVerdicts(FIXTURE, VERDICTS));

  it('reproduces every recorded reward and reward_info component, and reports a tampered one', () =>
    expectRegradeAgrees(FIXTURE, VERDICTS, { name: 't7-partial', diff: 'DIFF task 7', change: 'db_match: true -> false' }));
});

describe('airline check-data (CLI)', () => {
  it('passes on all 50 tasks, none of them a known reference issue', async () => {
    const { code, lines } = await capture(['check-data', '--domain', 'airline']);
    expect(lines.filter((l) => l.startsWith('KNOWN') || l.startsWith('FAIL'))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^check-data airline: 50 \/ 50 tasks ok \(0 known reference issues\), 0 failed/);
    expect(code).toBe(0);
  });
});
