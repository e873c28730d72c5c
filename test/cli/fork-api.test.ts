// Forks of simulations a local Worker holds, through its API: `tau2-edge fork --api URL --sim ID --at K --n N`
// (one fork group of N episodes, followed to its end, the continuations' rewards printed beside the source's) and
// `tau2-edge review RUN_ID --api URL -m user --repair` (each repair attempt a fork there). The Worker's models, and
// the reviewer, are a scripted OpenAI-compatible server on 127.0.0.1.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';
import { wrongTaskScenario } from '../support/wrong-task-scenario.ts';
import { capture } from '../support/cli.ts';
import { loadResults } from '../../src/cli/results-file.ts';

let harness: Harness;
let dir: string;

beforeAll(async () => {
  harness = await startHarness(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-fork-api-'));
}, 180_000);
afterAll(async () => {
  await harness?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('tau2-edge fork --api', () => {
  beforeAll(() => harness.fake.setHandler(mockConversation()));

  it("forks a simulation the API holds, there, and prints the continuations' rewards beside the source's", async () => {
    const api = harness.worker().url;
    const file = path.join(dir, 'source.json');
    const run = await capture(['run', '--api', api, '--domain', 'mock', '--task-ids', 'update_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--save-to', file]);
    expect(run.code, run.errors).toBe(0);
    const source = (await loadResults(file)).simulations[0]!;
    const saveTo = path.join(dir, 'forks.json');
    const result = await capture(['fork', '--api', api, '--sim', source.id, '--at', '1', '--n', '2', '--save-to', saveTo]);
    expect(result.code, result.errors).toBe(0);
    const forks = (await loadResults(saveTo)).simulations;
    expect(forks).toHaveLength(2);
    const reward = source.reward_info!.reward.value.toFixed(2);
    expect(result.lines[0]).toBe(`simulation ${source.id} (task update_task_1) forked at step 1 into 2 continuation(s)`);
    expect(result.lines.slice(2, 5).map((l) => l.split(/\s{2,}/))).toEqual([
      ['source', source.id, reward, source.termination_reason],
      ...forks.map((f, i) => [`fork ${i + 1}`, f.id, f.reward_info!.reward.value.toFixed(2), f.termination_reason]),
    ]);
    for (const f of forks) {
      // The opening and the user's first turn are the source's own messages.
      expect(f.messages!.slice(0, 2).map((m) => m.content)).toEqual(source.messages!.slice(0, 2).map((m) => m.content));
      expect(f.info!['forked_from']).toEqual({ simulation_id: source.id, at_step: 1 });
    }
  }, 180_000);

  it('an unknown simulation is the API\'s 404; a results file with --api is refused', async () => {
    const api = harness.worker().url;
    const unknown = await capture(['fork', '--api', api, '--sim', 'no-such-simulation', '--at', '0']);
    expect(unknown.code).toBe(1);
    expect(unknown.errors).toContain('Simulation no-such-simulation not found');
    const both = await capture(['fork', path.join(dir, 'source.json'), '--api', api, '--sim', 'x', '--at', '0']);
    expect(both.code).toBe(1);
    expect(both.errors).toContain('--api forks a simulation the API holds: give no results file and no --in-process');
  }, 60_000);
});

describe('tau2-edge review --api -m user --repair', () => {
  it('a run the API holds: the simulation whose user erred is forked there before that turn and repaired', async () => {
    const api = harness.worker().url;
    // The user names the wrong task in the run, the right one in the fork's continuation.
    harness.fake.setHandler(wrongTaskScenario(1));
    const run = await capture(['run', '--api', api, '--domain', 'mock', '--task-ids', 'update_task_1', '--agent-llm', 'scripted-agent', '--user-llm', 'scripted-user', '--save-to', path.join(dir, 'to-repair.json')]);
    expect(run.code, run.errors).toBe(0);
    const [ran] = await harness.client().listRuns(1);
    const original = (await harness.client().results(ran!.id)).simulations[0]!;
    expect(original.reward_info!.reward.value).toBe(0);
    const output = path.join(dir, 'api-repaired.json');
    const result = await capture(['review', ran!.id, '--api', api, '-m', 'user', '--repair', '-o', output, '--review-model', 'scripted-reviewer', '--llm-base-url', harness.fake.baseURL]);
    expect(result.code, result.errors).toBe(0);
    expect(result.lines).toContain(`📂 Loading results from: run ${ran!.id} at ${api}`);
    expect(result.lines).toContain('pass^1 0.00 as run → 1.00 with user-simulator errors repaired (1 simulations repaired, 1 now free of simulator errors, 0 not)');
    const [sim] = (await loadResults(output)).simulations;
    expect(sim!.reward_info!.reward.value).toBe(1);
    expect(sim!.info!['forked_from']).toEqual({ simulation_id: original.id, at_step: 2 });
    expect(sim!.info!['repair']).toMatchObject({ original_simulation_id: original.id, at_step: 2, attempts: 1, free_of_simulator_errors: true });
    // The run the API holds is not changed.
    expect((await harness.client().results(ran!.id)).simulations.map((s) => s.id)).toEqual([original.id]);
  }, 180_000);
});
