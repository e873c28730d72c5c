// Turning a finished episode into its SimulationRun record (reference: Orchestrator._finalize, get_cost).
import { add, pyFloat } from '../py/index.ts';
import type { PyFloat } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { EpisodeState } from '../schemas/episode.ts';
import type { SimulationRun } from '../schemas/simulation.ts';
import { isoTimestamp } from './clock.ts';
import type { Clock } from './clock.ts';

/** Sum of one side's message costs; null when any of its messages has no cost (e.g. task history). */
const sideCost = (messages: readonly Message[], role: 'assistant' | 'user'): PyFloat | null => {
  let total: number | PyFloat = 0;
  for (const m of messages) {
    if (m.role !== role) continue;
    if (m.cost === null) return null;
    total = add(total, m.cost);
  }
  return pyFloat(Number(total));
};

export const finalizeEpisode = (state: EpisodeState, policy: string, clock: Clock): SimulationRun => {
  if (!state.done || state.termination_reason === null) throw new Error('Episode is not done');
  const reason = state.termination_reason;
  if (state.to_role === 'env' && reason !== 'agent_error' && reason !== 'user_error') {
    throw new Error('Environment should not receive the last message');
  }
  const endMs = clock.nowMs();
  const messages = state.trajectory.map((m, i) => ({ ...m, turn_idx: i }));
  return {
    id: state.simulation_id,
    task_id: state.task.id,
    timestamp: isoTimestamp(endMs),
    start_time: state.start_time,
    end_time: isoTimestamp(endMs),
    duration: pyFloat((endMs - state.started_at_ms) / 1000),
    termination_reason: reason,
    agent_cost: sideCost(messages, 'assistant'),
    user_cost: sideCost(messages, 'user'),
    agent_usage: null,
    reward_info: null,
    messages,
    ticks: null,
    trial: state.trial,
    seed: state.seed,
    mode: 'half_duplex',
    speech_environment: null,
    review: null,
    user_only_review: null,
    info: null,
    auth_classification: null,
    hallucination_retries_used: 0,
    hallucination_check: null,
    provider_session_id: null,
    policy,
    effect_timeline: null,
  };
};
