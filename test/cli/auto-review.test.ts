// `tau2-edge run --auto-review`: each finished simulation is reviewed as `tau2-edge review` reviews it (the
// same requests, against the plain user guidelines as the reference's run does) and the review is saved with it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_REVIEW_SYSTEM_PROMPT } from '../../src/core/review/prompts.ts';
import { capture } from '../support/cli.ts';
import { mockConversation, startFakeOpenAI, systemPromptStartsWith, text } from '../support/fake-openai.ts';
import type { CapturedRequest, FakeOpenAI } from '../support/fake-openai.ts';

const isReview = systemPromptStartsWith('# Goal\nAssess this conversation');
const isReviewUser = systemPromptStartsWith('# Goal\nAssess this conversation to determine if the user simulator made any errors');
const isAuth = systemPromptStartsWith('# Goal\nClassify the user authentication');
const REVIEW = '{"errors": [{"source": "agent", "severity": "minor", "turn_idx": 1, "reasoning": "Terse."}], "summary": "One minor agent error."}';
const AUTH = '{"status": "not_needed", "reasoning": "No account was touched."}';

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-autoreview-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const reviewRequests = (since: number): CapturedRequest[] => fake.requests.slice(since).filter((r) => isReview(r) || isAuth(r));
const bodies = (requests: CapturedRequest[]) => requests.map((r) => r.bodyText).sort();

const runArgs = (file: string, ...extra: string[]) => [
  'run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', 'update_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user',
  '--llm-base-url', fake.baseURL, '--save-to', file, '--auto-review', '--review-model', 'fake-reviewer', ...extra,
];

describe('tau2-edge run --auto-review', () => {
  it('reviews each simulation as `review` does, saves review and auth_classification, and prints the review totals', async () => {
    fake.enqueueFor(isReview, text(REVIEW), text(REVIEW), text(REVIEW), text(REVIEW));
    fake.enqueueFor(isAuth, text(AUTH), text(AUTH), text(AUTH), text(AUTH));
    const file = path.join(dir, 'full.json');
    const start = fake.requests.length;
    const { code, text: output } = await capture(runArgs(file));
    expect(code, output).toBe(0);
    const sent = reviewRequests(start);
    expect(sent.filter(isReview)).toHaveLength(2);
    expect(sent.filter(isAuth)).toHaveLength(2);
    expect((sent.find(isReview)!.body as { messages: { content: string }[] }).messages[0]!.content).toBe(FULL_REVIEW_SYSTEM_PROMPT);
    expect(output).toContain('auto-review: full review of each simulation by fake-reviewer');
    expect(output).toMatch(/^Agent Errors +2$/m);
    expect(output).toMatch(/^Auth Result +succeeded 0 \/ failed 0, not needed 2$/m);
    // The reviewer's calls (a review and an authentication check per simulation) are the review role's: its model has no price.
    expect(output).toMatch(/^Review Cost +unpriced \(fake-reviewer\)$/m);
    expect(output).toMatch(/^Review +4 calls, \d+ prompt \+ \d+ completion tokens, unpriced \(fake-reviewer\)$/m);

    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      simulations: { review: { summary: string; agent_error: boolean }; auth_classification: { status: string }; user_only_review: unknown; info: { usage: { review: { calls: number } } } }[];
    };
    expect(saved.simulations).toHaveLength(2);
    for (const sim of saved.simulations) {
      expect(sim.info.usage.review.calls).toBe(2);
      expect(sim.review).toMatchObject({ summary: 'One minor agent error.', agent_error: true });
      expect(sim.auth_classification).toMatchObject({ status: 'not_needed', reasoning: 'No account was touched.' });
      expect(sim.user_only_review).toBeNull();
    }

    // `review` of the saved file (whose recorded guidelines are the plain ones) sends the very same requests.
    const again = fake.requests.length;
    const reviewed = await capture(['review', file, '-o', path.join(dir, 'again.json'), '--review-model', 'fake-reviewer', '--llm-base-url', fake.baseURL]);
    expect(reviewed.code).toBe(0);
    expect(bodies(reviewRequests(again))).toEqual(bodies(sent));
  });

  it('--review-mode user attaches user_only_review only', async () => {
    fake.enqueueFor(isReviewUser, text('{"errors": [], "summary": "Fine."}'), text('{"errors": [], "summary": "Fine."}'));
    const file = path.join(dir, 'user.json');
    const { code, text: output } = await capture(runArgs(file, '--review-mode', 'user'));
    expect(code, output).toBe(0);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { simulations: { review: unknown; auth_classification: unknown; user_only_review: { summary: string } }[] };
    expect(saved.simulations.map((s) => [s.review, s.auth_classification, s.user_only_review.summary])).toEqual([
      [null, null, 'Fine.'],
      [null, null, 'Fine.'],
    ]);
  });

  it('a reviewer model without credentials is refused before the run starts; --review-mode takes full or user', async () => {
    const noKey = await capture(['run', '--in-process', '--domain', 'mock', '--auto-review', '--llm-base-url', fake.baseURL]);
    expect(noKey.code).toBe(1);
    expect(noKey.errors).toContain('--review-model: claude-opus-4-5 is called on Anthropic, which needs ANTHROPIC_API_KEY');
    expect(noKey.text).not.toContain('results will be saved');
    const mode = await capture(['run', '--in-process', '--domain', 'mock', '--auto-review', '--review-mode', 'agent']);
    expect(mode.code).toBe(2);
    expect(mode.errors).toContain("option '--review-mode <mode>' argument 'agent' is invalid. Allowed choices are full, user.");
    expect((await capture(['run', '--help'])).text).toContain('--auto-review');
  });
});
