// `review -m user --repair`: each reviewed simulation whose review blames a user turn on the simulator is forked
// just before that turn and continued in this process, re-reviewed the same way, up to --max-repairs times, at
// most `concurrency` simulations at once. Repaired simulations replace their originals in a copy of the results.
import pLimit from 'p-limit';
import { repairSimulation } from '../../core/review/repair.ts';
import type { RepairOutcome } from '../../core/review/repair.ts';
import { reviewSimulation } from '../../core/review/reviewer.ts';
import type { ReviewContext, Reviewer, ReviewMode, SimulationReview } from '../../core/review/reviewer.ts';
import { repairSeed } from '../../core/runner/seeds.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import type { Forker } from '../fork/in-process.ts';

export interface RepairRun {
  readonly mode: ReviewMode;
  readonly reviewer: Reviewer;
  readonly context: ReviewContext;
  readonly forker: Forker;
  readonly maxRepairs: number;
  readonly concurrency: number;
  /** Called as each simulation's repair ends. */
  readonly onRepair?: (outcome: RepairOutcome, originalId: string) => void;
}

export const repairResults = async (
  reviewed: Results,
  reviews: ReadonlyMap<string, SimulationReview>,
  run: RepairRun,
): Promise<{ results: Results; outcomes: RepairOutcome[] }> => {
  const limit = pLimit(run.concurrency);
  const outcomes = await Promise.all(
    reviewed.simulations.map((simulation) =>
      limit(async (): Promise<RepairOutcome> => {
        const review = reviews.get(simulation.id);
        const task = reviewed.tasks.find((t) => t.id === simulation.task_id);
        if (review === undefined || task === undefined) return { kind: 'clean', simulation };
        const outcome = await repairSimulation(simulation, task, review, {
          maxRepairs: run.maxRepairs,
          continueFrom: (source, atStep) => run.forker.continueFrom(source, atStep, repairSeed(source.seed)),
          review: (next) => reviewSimulation(next, task, run.mode, run.context, run.reviewer),
        });
        run.onRepair?.(outcome, simulation.id);
        return outcome;
      }),
    ),
  );
  return { results: { ...reviewed, simulations: outcomes.map((o) => o.simulation) }, outcomes };
};
