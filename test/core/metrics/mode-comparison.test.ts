// pass^1 in default vs no-user mode, overall and per issue type, on hand-built results.
import { describe, expect, it } from 'vitest';
import { compareModes } from '../../../src/core/metrics/mode-comparison.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import type { Info, SimulationRun } from '../../../src/core/schemas/simulation.ts';
import { parseTaskId } from '../../../domains/telecom/tasks/task-id.ts';

const sim = (taskId: string, reward: number | null) =>
  ({
    task_id: taskId,
    termination_reason: reward === null ? 'infrastructure_error' : 'user_stop',
    agent_cost: null,
    reward_info: reward === null ? null : { reward: pyFloat(reward), reward_breakdown: null, db_check: null },
  }) as unknown as SimulationRun;

const run = (rewards: Readonly<Record<string, readonly (number | null)[]>>) => ({
  info: { num_trials: 2 } as Info,
  simulations: Object.entries(rewards).flatMap(([id, rs]) => rs.map((r) => sim(id, r))),
});

const S1 = '[service_issue]airplane_mode_on[PERSONA:None]';
const S2 = '[service_issue]unseat_sim_card[PERSONA:Easy]';
const M1 = '[mms_issue]bad_wifi_calling[PERSONA:Easy]';
const D1 = '[mobile_data_issue]data_mode_off[PERSONA:None]';
const X = '[mms_issue]break_apn_mms_setting[PERSONA:Hard]';
const Y = '[service_issue]lock_sim_card_pin[PERSONA:Hard]';

// Per task pass^1 (successes / counted trials):  default            solo
//   S1                                            1/2                2/2
//   S2                                            2/2                1/2
//   M1                                            0/2                1/2
//   D1 (one default trial an infra error)         1/1                2/2
//   X  only in default; Y only infra errors in solo → left out.
const defaultRun = run({ [S1]: [1, 0], [S2]: [1, 1], [M1]: [0, 0], [D1]: [1, null], [X]: [1, 1] });
const soloRun = run({ [S1]: [1, 1], [S2]: [1, 0], [M1]: [0.9999995, 0], [D1]: [1, 1], [Y]: [null, null] });
const issueType = (id: string) => parseTaskId(id)?.family ?? null;

describe('compareModes', () => {
  const comparison = compareModes(defaultRun, soloRun, issueType);

  it('overall: mean over the 4 shared tasks, (0.5+1+0+1)/4 vs (1+0.5+0.5+1)/4', () => {
    expect(comparison.overall).toEqual({ group: 'overall', tasks: 4, defaultPass1: 0.625, soloPass1: 0.75, userCost: 0.125 });
  });

  it('per issue type, by name', () => {
    expect(comparison.groups).toEqual([
      { group: 'mms_issue', tasks: 1, defaultPass1: 0, soloPass1: 0.5, userCost: 0.5 },
      { group: 'mobile_data_issue', tasks: 1, defaultPass1: 1, soloPass1: 1, userCost: 0 },
      { group: 'service_issue', tasks: 2, defaultPass1: 0.75, soloPass1: 0.75, userCost: 0 },
    ]);
  });

  it('names the tasks evaluated in one mode only and counts the excluded infrastructure errors', () => {
    expect(comparison.onlyDefault).toEqual([X]);
    expect(comparison.onlySolo).toEqual([]);
    expect(comparison.infraErrors).toEqual({ default: 1, solo: 2 });
  });

  it('without an issue type, only the overall row', () => {
    const plain = compareModes(defaultRun, soloRun);
    expect(plain.groups).toEqual([]);
    expect(plain.overall.defaultPass1).toBe(0.625);
  });

  it('refuses runs that share no evaluated task', () => {
    expect(() => compareModes(run({ [X]: [1] }), run({ [Y]: [1] }))).toThrow('No task was evaluated in both modes');
  });
});
