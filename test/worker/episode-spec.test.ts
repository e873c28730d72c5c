// An episode's spec is the run's work unit for its task and trial: the same task, trial and seed as the
// batch runner gives it, for every trial of a run, with the trial seeds drawn once per run in the isolate.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { dumpsPy } from '../../src/core/py/index.ts';
import type { PyInput } from '../../src/core/py/index.ts';
import { workUnits } from '../../src/core/runner/batch.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { loadDomain } from '../../src/worker/data/domains.ts';
import { encodeConfig } from '../../src/worker/db/runs.ts';
import { decodeLaunch, encodeLaunch, episodeSpec } from '../../src/worker/episode/launch.ts';

const text = (value: unknown): string => dumpsPy(value as PyInput);

describe('episodeSpec', () => {
  it("is the batch runner's work unit of the task and trial, for every trial of the run", async () => {
    const { data } = await loadDomain(env.ASSETS, 'mock');
    const config = RunConfigSchema.parse({ domain: 'mock', llm_agent: 'a', llm_user: 'u', num_trials: 7, seed: 123, task_ids: ['create_task_1', 'update_task_1'] });
    const tasks = data.tasks.filter((t) => config.task_ids!.includes(t.id));
    const configText = encodeConfig(config);
    const launchOf = (task_id: string, trial: number) => decodeLaunch(encodeLaunch({ run_id: 'r', config: configText, task_id, trial, tenant: 'operator' }));
    const expected = workUnits(config, tasks);
    expect(new Set(expected.map((u) => u.seed)).size).toBeGreaterThan(1);
    for (const unit of expected) {
      expect(text(episodeSpec(launchOf(unit.task.id, unit.trial), data))).toBe(text(unit));
    }
    expect(() => episodeSpec(launchOf('create_task_1', 7), data)).toThrow('Trial 7 is beyond the run\'s 7 trials');
    expect(() => episodeSpec(launchOf('no_such_task', 0), data)).toThrow('Task no_such_task is not in domain mock');
  });
});
