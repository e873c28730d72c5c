// Simulation evaluation: each component evaluator, combined over the task's reward_basis
// (reference: src/tau2/evaluator/evaluator.py, EvaluationType.ALL).
import type { PyValue } from '../py/index.ts';
import type { Task } from '../schemas/task.ts';
import type { RewardInfo, SimulationRun } from '../schemas/simulation.ts';
import type { EvaluationContext } from './context.ts';
import { domainToolTypes } from '../environment/domain.ts';
import { evaluateEnvironment } from './evaluator-env.ts';
import { evaluateActions } from './evaluator-action.ts';
import { evaluateCommunicate } from './evaluator-communicate.ts';
import { evaluateNlAssertions } from './evaluator-nl-assertions.ts';
import { rewardInfo } from './reward-info.ts';

export const evaluateSimulation = async (
  simulation: SimulationRun,
  task: Task,
  ctx: EvaluationContext,
): Promise<RewardInfo> => {
  const reason = simulation.termination_reason;
  if (reason !== 'agent_stop' && reason !== 'user_stop') {
    return rewardInfo(0, {
      reward_basis: null,
      info: { note: `Simulation terminated prematurely. Termination reason: ${reason}` },
    });
  }
  const criteria = task.evaluation_criteria;
  if (!criteria) return rewardInfo(1, { reward_basis: null, info: { note: 'No evaluation criteria' } });

  const trajectory = simulation.messages ?? [];
  const basis = criteria.reward_basis;
  const env = evaluateEnvironment(task, trajectory, ctx);
  const action = evaluateActions(task, trajectory, domainToolTypes(ctx.domain));
  const communicate = evaluateCommunicate(task, trajectory);
  const nl = basis.includes('NL_ASSERTION') ? await evaluateNlAssertions(task, trajectory, ctx.judge) : null;

  let reward = 1;
  const breakdown: Record<string, number> = {};
  const combine = (component: RewardInfo | null, applies: boolean): void => {
    if (!applies || !component) return;
    for (const [k, v] of Object.entries(component.reward_breakdown ?? {})) breakdown[k] = v!.value;
    reward *= component.reward.value;
  };
  combine(env, basis.includes('DB') || basis.includes('ENV_ASSERTION'));
  combine(action, basis.includes('ACTION'));
  combine(nl, basis.includes('NL_ASSERTION'));
  combine(communicate, basis.includes('COMMUNICATE'));

  return rewardInfo(reward, {
    db_check: env.db_check,
    env_assertions: env.env_assertions,
    action_checks: action.action_checks,
    nl_assertions: nl ? nl.nl_assertions : null,
    communicate_checks: communicate.communicate_checks,
    reward_basis: basis,
    reward_breakdown: breakdown,
    info: {
      env: env.info,
      nl: nl ? nl.info : null,
      communicate: communicate.info,
      action: action.info,
    } as Record<string, PyValue>,
  });
};
