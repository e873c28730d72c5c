// Building RewardInfo values with every field present, as the reference serializes them.
import { pyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { RewardInfo } from '../schemas/simulation.ts';
import type { RewardType } from '../schemas/task.ts';

type Fields = Partial<Omit<RewardInfo, 'reward' | 'reward_breakdown' | 'info'>> & {
  reward_breakdown?: Readonly<Record<string, number>> | null;
  info?: Readonly<Record<string, PyValue>> | null;
};

export const rewardInfo = (reward: number, fields: Fields = {}): RewardInfo => ({
  reward: pyFloat(reward),
  db_check: fields.db_check ?? null,
  env_assertions: fields.env_assertions ?? null,
  action_checks: fields.action_checks ?? null,
  nl_assertions: fields.nl_assertions ?? null,
  communicate_checks: fields.communicate_checks ?? null,
  reward_basis: fields.reward_basis === undefined ? ['DB'] : fields.reward_basis,
  reward_breakdown: fields.reward_breakdown
    ? (Object.fromEntries(Object.entries(fields.reward_breakdown).map(([k, v]) => [k, pyFloat(v)])) as Partial<
        Record<RewardType, ReturnType<typeof pyFloat>>
      > as RewardInfo['reward_breakdown'])
    : null,
  info: (fields.info as Record<string, PyValue> | null | undefined) ?? null,
});
