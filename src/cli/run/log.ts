// `--log-level` (reference: loguru's levels; `tau2 run` prints records at or above it, ERROR by default): the
// run's log records, printed between progress updates in loguru's default line format.
import type { ProgressDisplay } from './progress-display.ts';
import { floatRepr } from '../../core/py/index.ts';
import { logTime } from '../local-time.ts';

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'SUCCESS', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'ERROR';

export const logLine = (level: LogLevel, message: string, nowMs: number): string => `${logTime(new Date(nowMs))} | ${level.padEnd(8)} | tau2-edge - ${message}`;

export type RunLog = (level: LogLevel, message: string) => void;

/** Records at or above `threshold`, written by `write` (a progress display's note keeps the progress line whole). */
export const runLog = (threshold: LogLevel, write: (line: string) => void, now: () => number = Date.now): RunLog => {
  const min = LOG_LEVELS.indexOf(threshold);
  return (level, message) => {
    if (LOG_LEVELS.indexOf(level) >= min) write(logLine(level, message, now()));
  };
};

/** A progress display that also logs each finished simulation at INFO, as the reference's runner does. */
export const loggedProgress = (progress: ProgressDisplay, domain: string, threshold: LogLevel): ProgressDisplay => {
  const log = runLog(threshold, (line) => progress.note(line));
  return {
    simulation(key, sim) {
      const before = progress.progress.done;
      progress.simulation(key, sim);
      // A repeated simulation (an event stream reconnected) is not logged twice.
      if (progress.progress.done === before) return;
      log('INFO', `FINISHED SIMULATION: Domain: ${domain}, Task: ${sim.task_id}, Reward: ${sim.reward === null ? 'N/A' : floatRepr(sim.reward)}`);
    },
    note: (text) => progress.note(text),
    end: () => progress.end(),
    get progress() {
      return progress.progress;
    },
  };
};
