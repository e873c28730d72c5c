// An infrastructure error raised while grading is explained where it is shown: mock's
// create_task_1_with_env_assertions, whose environment assertion reads task_2, fails to grade when the agent never
// created that task (the scripted conversation only lists the users), as it does in the reference. Both engines
// record it as raised while grading, and the summary says what it means.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { repoRoot } from '../../src/cli/checkout.mjs';
import { GRADING_FAILURE_NOTE } from '../../src/core/runner/grading-failure.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-grading-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const TASK = 'create_task_1_with_env_assertions';
const args = (file: string): string[] => ['run', '--domain', 'mock', '--task-ids', TASK, '--max-retries', '0', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file];
const shown = new RegExp(`^=== Infrastructure Errors ===\\n1 × Task task_2 not found\\n {4}tasks: ${TASK}\\n {4}raised while grading the simulation: .*tau2-bench records such a simulation the same way`, 'm');

const recordedStage = async (file: string): Promise<unknown> => {
  const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
  expect(results.simulations.map((s) => s.termination_reason)).toEqual(['infrastructure_error']);
  return results.simulations[0]!.info?.['error_stage'];
};

describe('an infrastructure error raised while grading', () => {
  it('in process: recorded as raised while grading, and the summary explains it', async () => {
    const file = path.join(dir, 'in-process.json');
    const { text } = await capture([...args(file), '--in-process']);
    expect(text).toMatch(shown);
    expect(text).toContain(GRADING_FAILURE_NOTE);
    expect(await recordedStage(file)).toBe('evaluation');
  });

  it('on the local worker: the same record and the same explanation', async () => {
    const file = path.join(dir, 'worker.json');
    const { stdout } = await promisify(execFile)(path.join(repoRoot, 'bin', 'tau2-edge'), args(file), { env: { ...process.env, OPENAI_API_KEY: 'sk-test' }, timeout: 120_000 });
    expect(stdout).toMatch(shown);
    expect(await recordedStage(file)).toBe('evaluation');
  }, 180_000);

  it('a provider failure is not explained as a grading one', async () => {
    const { text } = await capture(['view', path.join(dir, 'in-process.json')]);
    expect(text).toContain(GRADING_FAILURE_NOTE);
    const refused = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--max-retries', '0', '--agent-llm', 'fake-agent',
      '--user-llm', 'fake-user', '--llm-base-url', 'http://127.0.0.1:9/v1', '--save-to', path.join(dir, 'refused.json')]);
    expect(refused.text).toContain('=== Infrastructure Errors ===');
    expect(refused.text).not.toContain('raised while grading');
  });
});
