// Shows a run's progress as it happens: one redrawn line on a terminal (refreshed every second so elapsed time
// and ETA move), one plain line per finished simulation otherwise.
import { addSimulation, progressLine, redraw, simulationLine, startProgress } from './progress.ts';
import type { FinishedSimulation, Progress } from './progress.ts';

export interface ProgressDisplay {
  /** Counts a finished simulation once; a repeated key (e.g. after an event stream reconnects) is ignored. */
  simulation(key: string, sim: FinishedSimulation): void;
  /** A message between progress updates (e.g. a retry), on its own line. */
  note(text: string): void;
  /** Leaves the terminal on a fresh line. */
  end(): void;
  readonly progress: Progress;
}

export interface DisplayTarget {
  readonly isTTY: boolean;
  readonly columns: number;
  write(text: string): void;
}

export const stdoutTarget = (): DisplayTarget => ({
  isTTY: process.stdout.isTTY === true,
  // A terminal without a known size (e.g. under `script`) reports 0 columns.
  columns: process.stdout.columns || 100,
  write: (text) => void process.stdout.write(text),
});

export const progressDisplay = (total: number, target: DisplayTarget, now: () => number = Date.now): ProgressDisplay => {
  let progress = startProgress(total, now());
  const seen = new Set<string>();
  const draw = (): void => target.write(redraw(progressLine(progress, now()), target.columns));
  const ticker = target.isTTY ? setInterval(draw, 1000) : null;
  ticker?.unref();
  if (target.isTTY) draw();
  return {
    simulation(key, sim) {
      if (seen.has(key)) return;
      seen.add(key);
      progress = addSimulation(progress, sim);
      if (target.isTTY) draw();
      else target.write(`${simulationLine(sim, progress, now())}\n`);
    },
    note(text) {
      target.write(target.isTTY ? `\r\x1b[K${text}\n` : `${text}\n`);
      if (target.isTTY) draw();
    },
    end() {
      if (ticker) clearInterval(ticker);
      if (target.isTTY) {
        draw();
        target.write('\n');
      }
    },
    get progress() {
      return progress;
    },
  };
};
