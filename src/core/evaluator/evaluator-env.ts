// Environment evaluator: final DB state against the gold replay, and env assertions
// (reference: src/tau2/evaluator/evaluator_env.py).
import { pyFloat } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { EnvAssertionCheck, RewardInfo } from '../schemas/simulation.ts';
import type { EvaluationContext } from './context.ts';
import { rewardInfo } from './reward-info.ts';
import { predictedAndGold } from './gold-run.ts';

export const evaluateEnvironment = (task: Task, trajectory: readonly Message[], ctx: EvaluationContext): RewardInfo => {
  const criteria = task.evaluation_criteria;
  if (!criteria) return rewardInfo(1, { info: { note: 'No evaluation criteria' } });
  if (criteria.actions === null && criteria.env_assertions === null) {
    return rewardInfo(1, {
      db_check: { db_match: true, db_reward: pyFloat(1) },
      info: { note: 'No expected actions or env assertions' },
    });
  }
  const { predicted, gold } = predictedAndGold(task, trajectory, ctx);

  const dbMatch = gold.dbMatches(predicted);
  const dbReward = dbMatch ? 1 : 0;
  const checks: EnvAssertionCheck[] = (criteria.env_assertions ?? []).map((assertion) => {
    const met = predicted.runEnvAssertion(assertion);
    return { env_assertion: assertion, met, reward: pyFloat(met ? 1 : 0) };
  });
  const assertionReward = checks.reduce((r, c) => r * c.reward.value, 1);

  let reward = 1;
  const breakdown: Record<string, number> = {};
  if (criteria.reward_basis.includes('DB')) {
    breakdown.DB = dbReward;
    reward *= dbReward;
  }
  if (criteria.reward_basis.includes('ENV_ASSERTION')) {
    breakdown.ENV_ASSERTION = assertionReward;
    reward *= assertionReward;
  }
  return rewardInfo(reward, {
    db_check: { db_match: dbMatch, db_reward: pyFloat(dbReward) },
    env_assertions: checks,
    reward_breakdown: breakdown,
  });
};
