// Results without what differs between two executions of the same script: ids, wall-clock times and
// durations, the provider's per-request completion id and creation time; simulations in (trial, task)
// order instead of completion order.
import type { Results, SimulationRun } from '../../../src/core/schemas/simulation.ts';

const TIME_KEYS = new Set(['timestamp', 'start_time', 'end_time', 'duration', 'generation_time_seconds']);

const withoutTimes = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (typeof value === 'object' && value !== null && value.constructor === Object) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, TIME_KEYS.has(k) ? '<time>' : k === 'raw_data' ? rawData(v) : withoutTimes(v)]),
    );
  }
  return value;
};

const rawData = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? withoutTimes({ ...value, id: '<completion id>', created: '<time>' }) : value;

const order = (a: SimulationRun, b: SimulationRun): number => (a.trial ?? 0) - (b.trial ?? 0) || a.task_id.localeCompare(b.task_id);

export const normalizedSimulation = (simulation: SimulationRun): unknown => withoutTimes({ ...simulation, id: '<id>' });

export const normalizedResults = (results: Results): unknown =>
  withoutTimes({ ...results, simulations: [...results.simulations].sort(order).map(normalizedSimulation) });
