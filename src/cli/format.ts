// Plain-text rendering of progress, metrics and simulations for the terminal.
import type { SimulationRun } from '../core/schemas/simulation.ts';

export const progressLine = (sim: SimulationRun, done: number, total: number, startedMs: number): string => {
  const elapsed = (Date.now() - startedMs) / 1000;
  const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
  const reward = sim.reward_info ? sim.reward_info.reward.value.toFixed(1) : '-';
  return `[${done}/${total}] task ${sim.task_id} trial ${sim.trial}: ${sim.termination_reason}, reward ${reward} (eta ${eta.toFixed(0)} s)`;
};

export const formatMetrics = (metrics: Readonly<Record<string, number>>): string =>
  Object.entries(metrics)
    .map(([k, v]) => `${k.padEnd(20)} ${Number.isInteger(v) ? v : v.toFixed(4)}`)
    .join('\n');
