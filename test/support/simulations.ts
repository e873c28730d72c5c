// Simulation records for viewer tests: a scored one, or an infrastructure error with its reason.
import { SimulationRunSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';

let next = 0;

export const scored = (taskId: string, reward: number, trial = 0): SimulationRun =>
  SimulationRunSchema.parse({
    id: `sim-${++next}`,
    task_id: taskId,
    timestamp: '2026-01-01T00:00:00',
    start_time: '2026-01-01T00:00:00',
    end_time: '2026-01-01T00:00:10',
    duration: 10,
    termination_reason: 'user_stop',
    trial,
    reward_info: { reward, reward_basis: ['DB'] },
    messages: [],
  });

export const infraError = (taskId: string, error: string, trial = 0): SimulationRun =>
  SimulationRunSchema.parse({
    ...scored(taskId, 0, trial),
    termination_reason: 'infrastructure_error',
    reward_info: null,
    info: { error, error_type: 'ProviderError', error_traceback: null, failed_after_attempts: 4 },
  });

/** A run's results as the viewer's reports read them. */
export const runResults = (simulations: readonly SimulationRun[], numTrials = 1) => ({ info: { num_trials: numTrials }, simulations: [...simulations] });

/** One scored simulation per reward: task id → the rewards of its trials, in trial order. */
export const scoredTrials = (rewards: Readonly<Record<string, readonly number[]>>): SimulationRun[] =>
  Object.entries(rewards).flatMap(([taskId, trials]) => trials.map((reward, trial) => scored(taskId, reward, trial)));
