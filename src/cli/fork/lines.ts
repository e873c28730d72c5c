// How a fork reads in the terminal: the source's reward and termination, each continuation's beside it, and
// the continuations' mean reward.
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { tableLines } from '../plain-table.ts';

const rewardText = (s: SimulationRun): string => (s.reward_info === null ? '-' : s.reward_info.reward.value.toFixed(2));

export const forkLines = (source: SimulationRun, atStep: number, continuations: readonly SimulationRun[]): string[] => {
  const rewards = continuations.flatMap((c) => (c.reward_info === null ? [] : [c.reward_info.reward.value]));
  const mean = rewards.length === 0 ? '-' : (rewards.reduce((a, b) => a + b, 0) / rewards.length).toFixed(2);
  return [
    `simulation ${source.id} (task ${source.task_id}) forked at step ${atStep} into ${continuations.length} continuation(s)`,
    ...tableLines([
      ['', 'simulation', 'reward', 'termination'],
      ['source', source.id, rewardText(source), source.termination_reason],
      ...continuations.map((c, i) => [`fork ${i + 1}`, c.id, rewardText(c), c.termination_reason]),
    ]),
    `mean reward of the continuations ${mean} (source ${rewardText(source)})`,
  ];
};
