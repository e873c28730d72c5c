// `tau2-edge run` on an existing --save-to: resumed as the reference's try_resume resumes (finished simulations
// kept and skipped, infrastructure errors run again, added tasks run, removed tasks refused, a changed
// configuration shown), with --auto-resume instead of the terminal's question.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpError, mockConversation } from '../support/fake-openai.ts';
import { fakeProviderSuite } from '../support/fake-provider-suite.ts';
import { capture } from '../support/cli.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';

const suite = fakeProviderSuite('tau2-edge-resume-');

const run = (file: string, ...flags: string[]) =>
  capture(['run', '--in-process', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', suite.fake.baseURL, '--save-to', file, ...flags]);
const saved = async (file: string): Promise<Results> => ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));

describe('tau2-edge run --auto-resume', () => {
  it('keeps the finished simulations, runs only the added tasks, and keeps the saved info and tasks first', async () => {
    const file = path.join(suite.dir, 'added.json');
    expect((await run(file, '--task-ids', 'create_task_1')).code).toBe(0);
    const first = await saved(file);

    const refused = await run(file, '--task-ids', 'create_task_1', 'update_task_1');
    expect(refused.code).toBe(1);
    expect(refused.errors).toContain(`${file} already exists; resume it with --auto-resume`);

    const resumed = await run(file, '--task-ids', 'create_task_1', 'update_task_1', '--auto-resume');
    expect(resumed.code, resumed.errors).toBe(0);
    expect(resumed.text).toContain(`resuming ${file}: 1 simulation(s) already done, 1 task(s) added`);
    expect(resumed.text.match(/^\[\d\/\d\] task \S+/gm)).toEqual(['[1/1] task update_task_1']);
    const after = await saved(file);
    expect(after.simulations[0]).toEqual(first.simulations[0]);
    expect(after.simulations.map((s) => s.task_id)).toEqual(['create_task_1', 'update_task_1']);
    expect(after.tasks.map((t) => t.id)).toEqual(['create_task_1', 'update_task_1']);
    expect([after.timestamp, after.info]).toEqual([first.timestamp, first.info]);

    const nothingLeft = await run(file, '--task-ids', 'create_task_1', 'update_task_1', '--auto-resume');
    expect(nothingLeft.code).toBe(0);
    expect(nothingLeft.text).toContain('2 simulation(s) already done');
    expect(nothingLeft.text).not.toMatch(/^\[\d\/\d\]/m);
    expect((await saved(file)).simulations).toEqual(after.simulations);
  });

  it('runs the infrastructure errors again and shows a changed configuration before going on', async () => {
    const file = path.join(suite.dir, 'infra.json');
    suite.fake.setHandler(() => httpError(401, 'Incorrect API key provided'));
    try {
      await run(file, '--task-ids', 'create_task_1', '--num-trials', '2', '--max-concurrency', '1', '--max-retries', '0');
    } finally {
      suite.fake.setHandler(mockConversation());
    }
    expect((await saved(file)).simulations.map((s) => s.termination_reason)).toEqual(['infrastructure_error']);

    const resumed = await run(file, '--task-ids', 'create_task_1', '--num-trials', '2', '--max-steps', '30', '--auto-resume');
    expect(resumed.code, resumed.errors).toBe(0);
    expect(resumed.text).toContain('The run config has changed:\n  max_steps: 200 -> 30');
    expect(resumed.text).toContain('0 simulation(s) already done, 1 infrastructure error(s) to run again');
    const after = await saved(file);
    expect(after.simulations.map((s) => [s.trial, s.termination_reason])).toEqual(expect.arrayContaining([[0, 'user_stop'], [1, 'user_stop']]));
    expect(after.simulations).toHaveLength(2);
  });

  it('refuses a resume whose task set lost a saved task, leaving the file as it was', async () => {
    const file = path.join(suite.dir, 'removed.json');
    await run(file, '--task-ids', 'create_task_1');
    const before = await readFile(file, 'utf8');
    const resumed = await run(file, '--task-ids', 'update_task_1', '--auto-resume');
    expect(resumed.code).toBe(1);
    expect(resumed.errors).toContain('Tasks were removed from the task set: create_task_1. Please delete the existing file or use a different save_to name.');
    expect(await readFile(file, 'utf8')).toBe(before);
  });
});
