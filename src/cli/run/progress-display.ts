// Shows a run's progress as it happens: one redrawn line on a terminal (cli-progress redraws it every second so
// elapsed time and ETA move, fits it to the width and keeps notes above it), one plain line per finished
// simulation otherwise.
import { MultiBar } from 'cli-progress';
import { addSimulation, progressLine, simulationLine, startProgress } from './progress.ts';
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

/** The target as the stream cli-progress draws on (it moves the cursor and clears lines through `write`). */
const terminalStream = (target: DisplayTarget): NodeJS.WritableStream =>
  ({ isTTY: true, columns: target.columns, write: (text: string) => (target.write(text), true) }) as unknown as NodeJS.WritableStream;

export const progressDisplay = (total: number, target: DisplayTarget, now: () => number = Date.now): ProgressDisplay => {
  let progress = startProgress(total, now());
  const seen = new Set<string>();
  const bars = target.isTTY
    ? new MultiBar({
        stream: terminalStream(target),
        format: () => progressLine(progress, now()),
        fps: 1,
        forceRedraw: true,
        linewrap: false,
        hideCursor: false,
        gracefulExit: false,
        clearOnComplete: false,
        stopOnComplete: false,
      })
    : null;
  const bar = bars?.create(total, 0) ?? null;
  // Drawn at once, and again at each change, not only at the next tick.
  bars?.update();
  return {
    simulation(key, sim) {
      if (seen.has(key)) return;
      seen.add(key);
      progress = addSimulation(progress, sim);
      if (bar) {
        bar.update(progress.done);
        bars!.update();
      } else target.write(`${simulationLine(sim, progress, now())}\n`);
    },
    note(text) {
      if (!bars) return target.write(`${text}\n`);
      bars.log(`${text}\n`);
      bars.update();
    },
    end() {
      bars?.stop();
    },
    get progress() {
      return progress;
    },
  };
};
