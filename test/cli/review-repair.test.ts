// `tau2-edge review RESULTS -m user --repair`: a simulation whose review blames a user turn on the simulator is
// forked just before that turn and continued until a continuation is free of simulator errors. One scripted
// OpenAI-compatible server on 127.0.0.1 plays user, agent and reviewer: asked which task, the user names the wrong
// one (task_2) a given number of times, then the right one; the reviewer blames the user's turn naming task_2.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpError, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { isUserReviewer, recordWrongTaskRun, wrongTaskScenario } from '../support/wrong-task-scenario.ts';
import { capture } from '../support/cli.ts';
import { loadResults } from '../../src/cli/results-file.ts';

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-repair-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const runScenario = (name: string, wrongAnswers: number): Promise<string> => recordWrongTaskRun(fake, path.join(dir, `${name}.json`), wrongAnswers);

const review = (file: string, output: string, maxRepairs: number) =>
  capture(['review', file, '-m', 'user', '--repair', '--max-repairs', String(maxRepairs), '-o', output, '--review-model', 'scripted-reviewer', '--llm-base-url', fake.baseURL]);

describe('tau2-edge review --repair', () => {
  it('a user who errs on its first two attempts and not on the next is repaired: forked before its turn, the turns before kept', async () => {
    const file = await runScenario('errs-twice', 2);
    const before = await readFile(file, 'utf8');
    const original = (await loadResults(file)).simulations[0]!;
    expect(original.reward_info!.reward.value).toBe(0);
    const output = path.join(dir, 'errs-twice-repaired.json');
    const result = await review(file, output, 3);
    expect(result.code, result.errors).toBe(0);
    expect(result.lines).toContain(`  ${original.id}: repaired at step 2 (2 attempt(s)) → ${(await loadResults(output)).simulations[0]!.id}`);
    expect(result.lines).toContain('pass^1 0.00 as run → 1.00 with user-simulator errors repaired (1 simulations repaired, 1 now free of simulator errors, 0 not)');
    // The original results file is never changed.
    expect(await readFile(file, 'utf8')).toBe(before);
    const repaired = (await loadResults(output)).simulations;
    expect(repaired).toHaveLength(1);
    const [sim] = repaired;
    expect(sim!.id).not.toBe(original.id);
    expect(sim!.reward_info!.reward.value).toBe(1);
    // Up to the faulty turn (greeting, the user's opening, the agent's question) the messages are the original's.
    expect(original.messages![3]).toMatchObject({ role: 'user', content: 'Please mark task_2 as completed.' });
    expect(sim!.messages!.slice(0, 3)).toEqual(original.messages!.slice(0, 3));
    expect(sim!.messages![3]).toMatchObject({ role: 'user', content: 'Please mark task_1 as completed.' });
    expect(sim!.user_only_review).toMatchObject({ has_errors: false, errors: [] });
    expect(sim!.info!['repair']).toMatchObject({
      original_simulation_id: original.id,
      at_step: 2,
      attempts: 2,
      free_of_simulator_errors: true,
      review: { user_error: true, errors: [{ turn_idx: 3, reasoning: 'Asked for task_2; the instructions name task_1.' }] },
    });
  });

  it('a user who always errs is reported as not repaired: the original is kept, with its attempts recorded', async () => {
    const file = await runScenario('always-errs', Number.POSITIVE_INFINITY);
    const original = (await loadResults(file)).simulations[0]!;
    const output = path.join(dir, 'always-errs-repaired.json');
    const result = await review(file, output, 2);
    expect(result.code, result.errors).toBe(0);
    expect(result.lines).toContain(`  ${original.id}: not repaired after 2 attempt(s): the user simulator still erred after 2 attempt(s)`);
    expect(result.lines).toContain('pass^1 0.00 as run → 0.00 with user-simulator errors repaired (1 simulations repaired, 0 now free of simulator errors, 1 not)');
    const [sim] = (await loadResults(output)).simulations;
    expect(sim!.id).toBe(original.id);
    expect(sim!.messages).toEqual(original.messages);
    expect(sim!.info!['repair']).toMatchObject({ original_simulation_id: original.id, attempts: 2, free_of_simulator_errors: false });
  });

  it('a reviewer that calls the error critical_hindered, as its prompt asks (a severity the recorded review refuses, as the reference\'s does), still names the turn to repair', async () => {
    const file = await runScenario('critical', 1);
    const original = (await loadResults(file)).simulations[0]!;
    fake.setHandler(wrongTaskScenario(0, 'critical_hindered'));
    const output = path.join(dir, 'critical-repaired.json');
    const result = await review(file, output, 3);
    expect(result.code, result.errors).toBe(0);
    expect(result.lines).toContain('pass^1 0.00 as run → 1.00 with user-simulator errors repaired (1 simulations repaired, 1 now free of simulator errors, 0 not)');
    const [sim] = (await loadResults(output)).simulations;
    const repair = sim!.info!['repair'] as { original_simulation_id: string; at_step: number; review: { errors: { turn_idx: number; reasoning: string }[] } };
    expect(repair).toMatchObject({ original_simulation_id: original.id, at_step: 2 });
    // The review it rests on is recorded as the reference records it, with the reviewer's answer in its reasoning.
    expect(repair.review.errors[0]!.turn_idx).toBe(-1);
    expect(repair.review.errors[0]!.reasoning).toMatch(/^Failed to parse LLM response: .*"severity":\s*"critical_hindered"/s);
  });

  it('a continuation whose review fails is never taken as free of errors: the original is kept', async () => {
    const file = await runScenario('review-fails', 1);
    const original = (await loadResults(file)).simulations[0]!;
    // From here the user names the right task, but the continuation's review is refused (401 is not retried).
    const scenario = wrongTaskScenario(0);
    let reviews = 0;
    fake.setHandler((request) => (isUserReviewer(request) && ++reviews === 2 ? httpError(401, 'bad key') : scenario(request)));
    const output = path.join(dir, 'review-fails-repaired.json');
    const result = await review(file, output, 3);
    expect(result.code, result.errors).toBe(0);
    expect(result.lines.find((l) => l.startsWith(`  ${original.id}: not repaired after 1 attempt(s): `))).toBeDefined();
    expect(result.lines).toContain('pass^1 0.00 as run → 0.00 with user-simulator errors repaired (1 simulations repaired, 0 now free of simulator errors, 1 not)');
    const [sim] = (await loadResults(output)).simulations;
    expect(sim!.id).toBe(original.id);
  });

  it('a simulation its review finds free of simulator errors is kept as it is', async () => {
    const file = await runScenario('clean', 0);
    const original = (await loadResults(file)).simulations[0]!;
    const output = path.join(dir, 'clean-repaired.json');
    const result = await review(file, output, 3);
    expect(result.code, result.errors).toBe(0);
    expect(result.lines).toContain('pass^1 1.00 as run → 1.00 with user-simulator errors repaired (0 simulations repaired, 0 now free of simulator errors, 0 not)');
    const [sim] = (await loadResults(output)).simulations;
    expect(sim!.id).toBe(original.id);
    expect(sim!.info?.['repair']).toBeUndefined();
  });

  it('--max-repairs is bounded and named when refused', async () => {
    const result = await capture(['review', path.join(dir, 'clean.json'), '-m', 'user', '--repair', '--max-repairs', '0', '--llm-base-url', fake.baseURL]);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('→ at ["--max-repairs"]');
  });
});
