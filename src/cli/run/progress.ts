// Progress of a run on the terminal: a pure state (counts and rewards so far) folded over finished
// simulations, and the lines that show it — one redrawn line on a TTY, one plain line per simulation otherwise.
import type { TerminationReason } from '../../core/schemas/simulation.ts';

/** What the display needs of one finished simulation. */
export interface FinishedSimulation {
  readonly task_id: string;
  readonly trial: number | null;
  readonly termination_reason: TerminationReason;
  /** `null` when the simulation has no reward (an infrastructure error). */
  readonly reward: number | null;
}

export interface Progress {
  readonly total: number;
  readonly done: number;
  readonly infraErrors: number;
  /** Sum and count of the rewards of evaluated simulations (infrastructure errors excluded, as in the metrics). */
  readonly rewardSum: number;
  readonly rewarded: number;
  readonly startedMs: number;
}

export const startProgress = (total: number, startedMs: number, done = 0): Progress => ({
  total,
  done,
  infraErrors: 0,
  rewardSum: 0,
  rewarded: 0,
  startedMs,
});

export const addSimulation = (progress: Progress, sim: FinishedSimulation): Progress => {
  const infra = sim.termination_reason === 'infrastructure_error';
  const scored = !infra && sim.reward !== null;
  return {
    ...progress,
    done: progress.done + 1,
    infraErrors: progress.infraErrors + (infra ? 1 : 0),
    rewardSum: progress.rewardSum + (scored ? sim.reward! : 0),
    rewarded: progress.rewarded + (scored ? 1 : 0),
  };
};

/** `75s` → `1m15s`; hours when needed. */
export const formatDuration = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
};

/** Seconds left at the pace so far; `null` before the first simulation finishes. */
export const etaSeconds = (progress: Progress, nowMs: number): number | null => {
  if (progress.done === 0) return null;
  if (progress.done >= progress.total) return 0;
  const elapsed = (nowMs - progress.startedMs) / 1000;
  return (elapsed / progress.done) * (progress.total - progress.done);
};

const bar = (done: number, total: number, width: number): string => {
  const filled = total === 0 ? width : Math.min(width, Math.floor((done / total) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
};

/** `[#####.....] 12/40 · avg reward 0.583 · 1 infra error · 0m45s elapsed · ETA 1m45s` */
export const progressLine = (progress: Progress, nowMs: number, barWidth = 20): string => {
  const eta = etaSeconds(progress, nowMs);
  const parts = [
    `${bar(progress.done, progress.total, barWidth)} ${progress.done}/${progress.total}`,
    `avg reward ${progress.rewarded === 0 ? '-' : (progress.rewardSum / progress.rewarded).toFixed(3)}`,
    `${progress.infraErrors} infra error${progress.infraErrors === 1 ? '' : 's'}`,
    `${formatDuration((nowMs - progress.startedMs) / 1000)} elapsed`,
    `ETA ${eta === null ? '-' : formatDuration(eta)}`,
  ];
  return parts.join(' · ');
};

/** The line logged for one finished simulation when the output is not a terminal. */
export const simulationLine = (sim: FinishedSimulation, progress: Progress, nowMs: number): string => {
  const reward = sim.reward === null ? '-' : sim.reward.toFixed(1);
  const eta = etaSeconds(progress, nowMs);
  return `[${progress.done}/${progress.total}] task ${sim.task_id} trial ${sim.trial}: ${sim.termination_reason}, reward ${reward} (ETA ${eta === null ? '-' : formatDuration(eta)})`;
};
