// `tau2-edge fork RESULTS --sim ID --at K --n N --in-process`: N continuations of a recorded simulation from its
// step K, each graded, their rewards printed beside the source's and saved as a results file. A scripted
// OpenAI-compatible server on 127.0.0.1 plays user and agent: the source's user named the wrong task, the
// continuations' user names the right one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { recordWrongTaskRun } from '../support/wrong-task-scenario.ts';
import { capture } from '../support/cli.ts';
import { loadResults, saveResults } from '../../src/cli/results-file.ts';
import { trialSeeds } from '../../src/core/runner/seeds.ts';

let fake: FakeOpenAI;
let dir: string;
let file: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-fork-'));
  // The user errs once (in the source run), then always names the right task.
  file = await recordWrongTaskRun(fake, path.join(dir, 'source.json'), 1);
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const fork = (...args: string[]) => capture(['fork', file, '--llm-base-url', fake.baseURL, '--in-process', ...args]);

describe('tau2-edge fork', () => {
  it("prints each continuation's reward beside the source's, and saves them with their origin", async () => {
    const source = (await loadResults(file)).simulations[0]!;
    const saveTo = path.join(dir, 'forks.json');
    const result = await fork('--sim', source.id, '--at', '2', '--n', '3', '--save-to', saveTo);
    expect(result.code, result.errors).toBe(0);
    const forks = (await loadResults(saveTo)).simulations;
    expect(forks).toHaveLength(3);
    expect(result.lines[0]).toBe(`simulation ${source.id} (task update_task_1) forked at step 2 into 3 continuation(s)`);
    expect(result.lines.slice(1, 6).map((l) => l.split(/\s{2,}/))).toEqual([
      ['', 'simulation', 'reward', 'termination'],
      ['source', source.id, '0.00', 'user_stop'],
      ...forks.map((f, i) => [`fork ${i + 1}`, f.id, '1.00', 'user_stop']),
    ]);
    expect(result.lines).toContain('mean reward of the continuations 1.00 (source 0.00)');
    expect(result.lines).toContain(`continuations saved to ${saveTo}`);
    for (const f of forks) {
      expect(f.messages!.slice(0, 3)).toEqual(source.messages!.slice(0, 3));
      expect(f.messages![3]).toMatchObject({ role: 'user', content: 'Please mark task_1 as completed.' });
      expect(f.info!['forked_from']).toEqual({ simulation_id: source.id, at_step: 2 });
    }
    // The continuations' seeds are the trial seeds of the source run's seed, as the API's fork group draws them.
    expect(forks.map((f) => f.seed)).toEqual(trialSeeds((await loadResults(file)).info.seed!, 3));
  });

  it('a recorded tool result the replay does not reproduce refuses the fork, naming the step', async () => {
    const results = await loadResults(file);
    const source = results.simulations[0]!;
    const at = source.messages!.findIndex((m) => m.role === 'tool');
    const tampered = { ...source, messages: source.messages!.map((m, i) => (i === at ? { ...m, content: '{"edited": true}' } : m)) };
    const edited = path.join(dir, 'edited.json');
    await saveResults(edited, { ...results, simulations: [tampered] });
    const result = await capture(['fork', edited, '--sim', source.id, '--at', '5', '--llm-base-url', fake.baseURL, '--in-process']);
    expect(result.code).toBe(1);
    expect(result.errors).toContain(`simulation ${source.id}: Replaying step 3 differs from the record: tool call call_task_2 returned`);
    // Before that step the record replays.
    expect((await capture(['fork', edited, '--sim', source.id, '--at', '3', '--llm-base-url', fake.baseURL, '--in-process', '--save-to', path.join(dir, 'edited-3.json')])).code).toBe(0);
  });

  it('a step beyond the simulation, an unknown simulation and too many continuations are refused, naming what', async () => {
    const source = (await loadResults(file)).simulations[0]!;
    const beyond = await fork('--sim', source.id, '--at', '99');
    expect(beyond.code).toBe(1);
    expect(beyond.errors).toContain(`simulation ${source.id}: at_step 99 is beyond the episode: it has steps 0 to`);
    const unknown = await fork('--sim', 'nope', '--at', '0');
    expect(unknown.code).toBe(1);
    expect(unknown.errors).toContain(`--sim: no simulation nope in ${file}`);
    const far = await fork('--sim', source.id, '--at', '100001');
    expect(far.code).toBe(1);
    expect(far.errors).toContain('→ at ["--at"]');
    const many = await fork('--sim', source.id, '--at', '0', '--n', '65');
    expect(many.code).toBe(1);
    expect(many.errors).toContain('→ at ["--n"]');
  });
});
