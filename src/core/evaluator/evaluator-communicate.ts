// Communicate evaluator: required information must appear in an agent message
// (reference: src/tau2/evaluator/evaluator_communicate.py).
import type { Message } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { CommunicateCheck, RewardInfo } from '../schemas/simulation.ts';
import { rewardInfo } from './reward-info.ts';

export const evaluateCommunicate = (task: Task, trajectory: readonly Message[]): RewardInfo => {
  const infos = task.evaluation_criteria?.communicate_info ?? [];
  if (infos.length === 0) {
    return rewardInfo(1, { info: { note: 'No communicate_info to evaluate' }, reward_breakdown: { COMMUNICATE: 1 } });
  }
  const spoken = trajectory.flatMap((m) =>
    m.role === 'assistant' && m.content !== null && m.content.trim() !== '' ? [m.content] : [],
  );
  // Commas are stripped from the message only, not from the expected information.
  const checks: CommunicateCheck[] = infos.map((info) => {
    const found = spoken.find((content) => content.toLowerCase().replaceAll(',', '').includes(info.toLowerCase()));
    return found === undefined
      ? { info, met: false, justification: `Information '${info}' not communicated.` }
      : { info, met: true, justification: `Information '${info}' communicated in the message:\n '${found}'` };
  });
  const reward = checks.every((c) => c.met) ? 1 : 0;
  return rewardInfo(reward, { communicate_checks: checks, reward_breakdown: { COMMUNICATE: reward } });
};
