// `view --only-show-failed / --only-show-all-failed`: the reference's view_simulations filters.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture } from '../support/cli.ts';
import { parsePyJson, pyFloat } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';
import { saveResults } from '../../src/cli/results-file.ts';

describe('view filters', () => {
  it('lists only failed simulations, or only those of tasks with no successful trial', async () => {
    const fixture = ResultsSchema.parse(parsePyJson(await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
    const base = fixture.simulations[0]!;
    const sim = (id: string, taskId: string, trial: number, reward: number): SimulationRun => ({
      ...base,
      id,
      task_id: taskId,
      trial,
      reward_info: { ...base.reward_info!, reward: pyFloat(reward) },
    });
    const results = { ...fixture, simulations: [sim('sim-a0', 'task_a', 0, 1), sim('sim-a1', 'task_a', 1, 0), sim('sim-b0', 'task_b', 0, 0)] };
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-view-'));
    try {
      const file = path.join(dir, 'results.json');
      await saveResults(file, results);
      const all = await capture(['view', file]);
      expect(['sim-a0', 'sim-a1', 'sim-b0'].every((id) => all.text.includes(id))).toBe(true);
      const failed = await capture(['view', file, '--only-show-failed']);
      expect([failed.text.includes('sim-a0'), failed.text.includes('sim-a1'), failed.text.includes('sim-b0')]).toEqual([false, true, true]);
      const allFailed = await capture(['view', file, '--only-show-all-failed']);
      expect([allFailed.text.includes('sim-a0'), allFailed.text.includes('sim-a1'), allFailed.text.includes('sim-b0')]).toEqual([false, false, true]);
      expect(allFailed.text).toContain('Total number of failed tasks: 1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
