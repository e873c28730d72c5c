// Re-grading hand-written banking_knowledge trajectories: `tau2-edge evaluate-trajs` reproduces every verdict.
// The fixture's reward_info values were produced by the reference's evaluator and tools (with its read-log
// allowlist per task); the tasks, policy and guidelines come from the fetched data.
import { describe, it } from 'vitest';
import { expectRecordedVerdicts, expectRegradeAgrees } from '../../support/regrade.ts';

/** What each hand-written trajectory shows, and the reward the reference's rules give it. */
const VERDICTS: Record<string, number> = {
  't005-gold-path': 1, // transfer, verification record, email change
  't005-wrong-email': 0, // a write with another value
  't005-no-verification-record': 0, // a write left out
  't075-gold-path': 1, // verification, then a discoverable tool unlocked and called
  't075-call-before-unlock-and-extra-unlock': 1, // a refused call and an unused unlock change nothing
  't075-savings-instead-of-checking-and-hallucinated-tool': 0, // a refused write, a tool that does not exist here
  't004-transfer-right-reason': 1, // ACTION basis: the transfer with the expected reason
  't004-transfer-wrong-reason': 0, // ACTION basis: another reason
  't001-user-applies': 1, // the user's own tool, called by the user
  't001-user-applies-wrong-card': 0, // the user applies for another card
  't001-max-steps': 0, // premature termination
};

const FIXTURE = {
  domain: 'banking',
  fixture: new URL('../../fixtures/banking-results-regrade.json', import.meta.url),
  policy: 'domains/banking_knowledge/prompts/no_knowledge.md',
  taskPath: (id: string) => `domains/banking_knowledge/tasks/${id}.json`,
};

describe('banking_knowledge re-grading (evaluate-trajs)', () => {
  it('the fixture records the verdicts the reference gives', () => expectRecordedVerdicts(FIXTURE, VERDICTS));

  it('reproduces every recorded reward and reward_info component, and reports a tampered one', () =>
    expectRegradeAgrees(FIXTURE, VERDICTS, { name: 't005-wrong-email', diff: 'DIFF task task_005', change: 'db_match: true -> false' }));
});
