// A run that adds trials in rounds until the answer is known: after each round, whether to stop and why. Two
// goals: a precision target (the average reward's anytime-valid 95% interval at most `width` wide) and a comparison
// with a baseline run A (the paired difference resolved by the anytime-valid betting test). Both stop at
// `maxTrials` trials per task. The verdict is recomputed from the simulations alone, so it needs no stored state.
import type { SimulationRun } from '../schemas/simulation.ts';
import { meanInterval } from '../metrics/mean-sequence.ts';
import { observeDifference, resolvedDirection, startDifferenceSequence } from '../metrics/confidence-sequence.ts';

export const STOP_REASONS = ['ci_width_reached', 'resolved', 'max_trials', 'baseline_trials'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export type RoundsGoal =
  | { readonly kind: 'ci_width'; readonly width: number; readonly maxTrials: number }
  | { readonly kind: 'resolved'; readonly baseline: readonly SimulationRun[]; readonly maxTrials: number };

export interface RoundsVerdict {
  /** Why the run stops now, or null to add a round. */
  readonly stop: StopReason | null;
  /** One line saying where the run stands. */
  readonly detail: string;
}

const byTaskId = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** Each evaluated (task, trial) reward; infrastructure errors and unevaluated trials are left out. */
const rewardsByEpisode = (simulations: readonly SimulationRun[]): Map<string, number> => {
  const out = new Map<string, number>();
  for (const s of simulations) {
    if (s.termination_reason === 'infrastructure_error' || !s.reward_info || s.trial === null || s.trial === undefined) continue;
    out.set(`${s.trial}\u0000${s.task_id}`, s.reward_info.reward.value);
  }
  return out;
};

/** The keys in a fixed order chosen before the rewards are seen: by trial, then by task. */
const inRoundOrder = (keys: Iterable<string>): string[] =>
  [...keys].sort((x, y) => {
    const [tx, ix] = x.split('\u0000') as [string, string];
    const [ty, iy] = y.split('\u0000') as [string, string];
    return Number(tx) - Number(ty) || byTaskId(ix, iy);
  });

const clampReward = (r: number): number => Math.min(1, Math.max(0, r));

const widthVerdict = (goal: { width: number; maxTrials: number }, simulations: readonly SimulationRun[], trials: number): RoundsVerdict => {
  const rewards = rewardsByEpisode(simulations);
  const interval = meanInterval(inRoundOrder(rewards.keys()).map((k) => clampReward(rewards.get(k)!)));
  const width = interval.high - interval.low;
  const detail = `after ${trials} trial(s) per task: the average reward's anytime-valid 95% interval [${interval.low.toFixed(4)}, ${interval.high.toFixed(4)}] is ${width.toFixed(4)} wide (target ${goal.width})`;
  if (width <= goal.width) return { stop: 'ci_width_reached', detail };
  return { stop: trials >= goal.maxTrials ? 'max_trials' : null, detail };
};

/** Each trial of B pairs with A's trial of the same index on the same task: each of A's trials is used once. */
const resolvedVerdict = (goal: { baseline: readonly SimulationRun[]; maxTrials: number }, simulations: readonly SimulationRun[], trials: number): RoundsVerdict => {
  const [a, b] = [rewardsByEpisode(goal.baseline), rewardsByEpisode(simulations)];
  const paired = inRoundOrder([...b.keys()].filter((k) => a.has(k)));
  const sequence = paired.reduce((s, k) => observeDifference(s, clampReward(b.get(k)!) - clampReward(a.get(k)!)), startDifferenceSequence());
  const direction = resolvedDirection(sequence);
  const meanDifference = paired.length === 0 ? 0 : paired.reduce((s, k) => s + b.get(k)! - a.get(k)!, 0) / paired.length;
  const where = `after ${trials} trial(s) per task, ${paired.length} paired trial(s), mean difference B − A ${meanDifference >= 0 ? '+' : ''}${meanDifference.toFixed(4)}`;
  if (direction !== null) return { stop: 'resolved', detail: `${where}: resolved, ${direction === 'b_better' ? 'B is better' : 'A is better'} (anytime-valid test, α = 0.05)` };
  if (trials >= goal.maxTrials) return { stop: 'max_trials', detail: `${where}: not resolved within ${goal.maxTrials} trial(s) per task` };
  const baselineTrials = new Set(goal.baseline.map((s) => s.trial));
  if (!baselineTrials.has(trials)) {
    return { stop: 'baseline_trials', detail: `${where}: not resolved, and A has only ${trials} trial(s) per task to pair with` };
  }
  return { stop: null, detail: `${where}: not resolved yet` };
};

/** Whether a run that has run `trials` trials per task stops now, and why. */
export const roundsVerdict = (goal: RoundsGoal, simulations: readonly SimulationRun[], trials: number): RoundsVerdict =>
  goal.kind === 'ci_width' ? widthVerdict(goal, simulations, trials) : resolvedVerdict(goal, simulations, trials);
