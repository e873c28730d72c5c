// Re-grading a recorded results file with this engine (reference: `tau2 evaluate-trajs`): the tasks embedded
// in the file, lenient replay, and recorded LLM-judge verdicts unless a judge model is given.
import type { Results, RewardInfo, SimulationRun } from '../schemas/simulation.ts';
import type { AnyDomain, DomainData } from '../environment/domain.ts';
import type { ModelConfig } from '../agents/participant.ts';
import { evaluateSimulation } from './evaluator.ts';
import { isSoloAgent } from '../schemas/episode.ts';
import type { AgentKind } from '../schemas/episode.ts';
import { episodeDomain } from '../environment/episode-domain.ts';

export interface Regraded {
  readonly simulation: SimulationRun;
  readonly recorded: RewardInfo | null;
  readonly regraded: RewardInfo;
  /** Component name → [recorded, regraded] for every component that differs. */
  readonly differences: Readonly<Record<string, readonly [unknown, unknown]>>;
  readonly replayWarnings: readonly string[];
}

export interface RegradeContext {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly judge: ModelConfig | null;
  readonly now: () => string;
}

/** The graded components of a RewardInfo, flattened for comparison. */
export const rewardComponents = (info: RewardInfo | null): Record<string, unknown> => {
  if (!info) return {};
  const components: Record<string, unknown> = { reward: info.reward.value };
  for (const [key, value] of Object.entries(info.reward_breakdown ?? {})) components[key] = value!.value;
  if (info.db_check) components.db_match = info.db_check.db_match;
  info.env_assertions?.forEach((c, i) => (components[`env_assertion[${i}]`] = c.met));
  info.action_checks?.forEach((c, i) => (components[`action[${i}] ${c.action.name}`] = c.action_match));
  info.communicate_checks?.forEach((c, i) => (components[`communicate[${i}]`] = c.met));
  info.nl_assertions?.forEach((c, i) => (components[`nl_assertion[${i}]`] = c.met));
  return components;
};

/**
 * Solo mode as evaluate_trajectories recognises it: the solo agent AND the dummy user (the solo agent is
 * llm_agent_solo, or external_solo for a solo agent driven over the step API).
 */
export const isSoloRun = (results: Pick<Results, 'info'>): boolean =>
  isSoloAgent(results.info.agent_info.implementation as AgentKind) && results.info.user_info.implementation === 'dummy_user';

export const regradeSimulation = async (
  simulation: SimulationRun,
  results: Pick<Results, 'tasks' | 'info'>,
  ctx: RegradeContext,
): Promise<Regraded> => {
  const task = results.tasks.find((t) => t.id === simulation.task_id);
  if (!task) throw new Error(`Task ${simulation.task_id} is not embedded in the results file`);
  const warnings: string[] = [];
  const recorded = simulation.reward_info;
  // The domain as this task's episode saw it. Like the reference's re-grading, the default retrieval
  // configuration serves: retrieval tools only read, so no configuration changes what is replayed.
  const view = episodeDomain(ctx.domain, ctx.data, task, { retrievalConfig: null, retrievalConfigKwargs: null });
  const regraded = await evaluateSimulation(simulation, task, {
    domain: view.domain,
    data: view.data,
    solo: isSoloRun(results),
    strictReplay: false,
    now: ctx.now,
    judge: ctx.judge ?? { recorded: recorded?.nl_assertions ?? null },
    onReplayMismatch: (detail) => warnings.push(detail),
  });
  const before = rewardComponents(recorded);
  const after = rewardComponents(regraded);
  const differences: Record<string, readonly [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[key] !== after[key]) differences[key] = [before[key], after[key]];
  }
  return { simulation, recorded, regraded, differences, replayWarnings: warnings };
};
