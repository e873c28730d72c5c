// Generated tasks played on the telecom environment: each break takes effect, the gold actions fix it.
import { describe, expect, it } from 'vitest';
import { Environment } from '../../../src/core/environment/environment.ts';
import { composedTelecomTasks, releasedTasks } from '../../../domains/telecom/tasks/generate.ts';
import { telecomSplits } from '../../../domains/telecom/tasks/splits.ts';
import { verifyTask, verifyTasks } from '../../../domains/telecom/tasks/verify.ts';
import { loaded } from '../../support/domains.ts';

const composed = composedTelecomTasks();
const { domain, data } = await loaded('telecom');
const newEnvironment = () => new Environment(domain, data, { now: () => '2026-01-01T00:00:00' });

describe('generated telecom tasks on the telecom environment', () => {
  // All 3,405 composed tasks take ~12 s (`tau2-edge generate-tasks --domain telecom --verify`); CI plays the
  // evaluated splits and every 20th composed task, withheld ones included.
  it('the base and small splits and a spread of the rest verify', { timeout: 30_000 }, () => {
    const splits = telecomSplits(composed);
    const evaluated = new Set([...splits.base, ...splits.small]);
    const chosen = composed.filter((t, i) => evaluated.has(t.id) || i % 20 === 0);
    expect(chosen.filter((t) => t.id.includes('no_refuel')).length).toBeGreaterThan(0);
    expect(verifyTasks(chosen, newEnvironment)).toEqual([]);
  });

  it('a task whose gold actions are cut short is reported as not fixed', () => {
    const task = releasedTasks(composed).find((t) => t.id === '[service_issue]airplane_mode_on|break_apn_settings[PERSONA:Hard]')!;
    const criteria = task.evaluation_criteria!;
    const cut = { ...task, evaluation_criteria: { ...criteria, actions: criteria.actions!.slice(0, -1) } };
    expect(verifyTask(task, newEnvironment)).toEqual([]);
    expect(verifyTask(cut, newEnvironment)).toContain('not fixed by the gold actions');
  });
});
