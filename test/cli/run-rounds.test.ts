// `tau2-edge run --target-ci-width W` and `run --compare-to A --until-resolved`: rounds of one more trial per task
// until the answer is known, in one results file whose trial indices continue.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAgent, isUserSimulator, mockConversation, startFakeOpenAI, text, toolCall } from '../support/fake-openai.ts';
import type { FakeHandler, FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';
import { saveResults } from '../../src/cli/results-file.ts';

/** An agent that does what create_task_1 asks: reward 1 (mockConversation's agent only lists users: reward 0). */
const solvingAgent: FakeHandler = (request) => {
  const messages = (request.body as { messages: { role: string }[] }).messages;
  if (isUserSimulator(request)) {
    return text(messages.some((m) => m.role === 'assistant') ? 'Thanks, that is all. ###STOP###' : 'Please create a task "Important Meeting" for user_1.');
  }
  if (isAgent(request)) {
    return messages.at(-1)?.role === 'tool'
      ? text('The task was created successfully.')
      : toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting"}', 'call_create');
  }
  return text('ok');
};

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-rounds-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const runArgs = (file: string, ...more: string[]) => ['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1',
  '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, file), ...more];

const saved = async (file: string): Promise<Results> => ResultsSchema.parse(parsePyJson(await readFile(path.join(dir, file), 'utf8')));

describe('tau2-edge run in rounds', () => {
  it('--target-ci-width adds trials until the anytime-valid CI is that narrow, then says why it stopped', async () => {
    fake.setHandler(solvingAgent);
    const { code, text: out } = await capture(runArgs('width.json', '--target-ci-width', '0.8', '--max-trials', '20'));
    expect(code, out).toBe(0);
    // Rewards all 1: the interval is [0.2…, 1] wide above 0.8 until ten trials (a fixed-sample CI would be 0 wide at once).
    expect(out).toMatch(/^round 9: .* is 0\.\d+ wide \(target 0\.8\)$/m);
    expect(out).toMatch(/^round 10: .* is 0\.7\d+ wide \(target 0\.8\)$/m);
    expect(out).toContain('rounds stopped: ci_width_reached');
    const results = await saved('width.json');
    expect(results.simulations.map((s) => s.trial)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results.info.num_trials).toBe(10);
    expect(results.simulations.every((s) => s.reward_info?.reward.value === 1)).toBe(true);
    // Trials keep the seeds one longer run would have given them.
    expect(new Set(results.simulations.map((s) => s.seed)).size).toBe(10);
  });

  it('--target-ci-width stops at --max-trials when the width is out of reach', async () => {
    fake.setHandler(solvingAgent);
    const { code, text: out } = await capture(runArgs('max.json', '--target-ci-width', '0.05', '--num-trials', '2', '--max-trials', '3'));
    expect(code, out).toBe(0);
    expect(out).toContain('rounds stopped: max_trials');
    expect((await saved('max.json')).simulations.map((s) => s.trial)).toEqual([0, 1, 2]);
  });

  it('--compare-to A --until-resolved stops as soon as a clearly better B is resolved, then prints the comparison', async () => {
    fake.setHandler(mockConversation());
    expect((await capture(runArgs('a.json', '--num-trials', '20'))).code).toBe(0);
    fake.setHandler(solvingAgent);
    const { code, text: out } = await capture(['run', '--in-process', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user',
      '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, 'b.json'), '--compare-to', path.join(dir, 'a.json'), '--until-resolved', '--max-trials', '20']);
    expect(code, out).toBe(0);
    expect(out).toMatch(/^round \d+: .*: resolved, B is better \(anytime-valid test, α = 0\.05\)$/m);
    expect(out).toContain('rounds stopped: resolved');
    expect(out).toMatch(/^Difference \(B − A\) +\+1\.0000/m);
    const b = await saved('b.json');
    // B ran A's tasks only, and fewer trials than A has.
    expect(new Set(b.simulations.map((s) => s.task_id))).toEqual(new Set(['create_task_1']));
    expect(b.info.num_trials).toBeGreaterThan(1);
    expect(b.info.num_trials).toBeLessThan(20);
    expect(b.simulations).toHaveLength(b.info.num_trials);
  });

  it("--until-resolved stops at A's trials when A has fewer than the rounds need", async () => {
    fake.setHandler(mockConversation());
    expect((await capture(runArgs('a3.json', '--num-trials', '3'))).code).toBe(0);
    fake.setHandler(solvingAgent);
    const { code, text: out } = await capture(runArgs('b3.json', '--compare-to', path.join(dir, 'a3.json'), '--until-resolved'));
    expect(code, out).toBe(0);
    expect(out).toContain("not resolved, and A has only 3 trial(s) per task to pair with");
    expect(out).toContain('rounds stopped: baseline_trials');
    expect((await saved('b3.json')).info.num_trials).toBe(3);

    // A results file of another domain is refused before anything runs.
    const a3 = await saved('a3.json');
    const other = path.join(dir, 'a-airline.json');
    await saveResults(other, { ...a3, info: { ...a3.info, environment_info: { ...a3.info.environment_info, domain_name: 'airline' } } }, 'json');
    const refused = await capture(runArgs('b-other.json', '--compare-to', other, '--until-resolved'));
    expect(refused.code).toBe(1);
    expect(refused.errors).toContain(`--compare-to: ${other} ran domain airline, not mock`);
    expect(refused.text).not.toContain('results will be saved');
  });
});
