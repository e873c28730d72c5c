// `run --target-ci-width W` and `run --compare-to A --until-resolved`: after the run's first trials, rounds of one
// more trial per task until the goal's verdict says stop. A round is a resumed run: the trials so far are skipped
// (`skip_episodes`) and `num_trials` grows by one, so trial indices and seeds continue as in one longer run.
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { roundsVerdict } from '../../core/runner/rounds.ts';
import type { RoundsGoal, StopReason } from '../../core/runner/rounds.ts';

export interface RoundOutcome {
  readonly results: Results;
  readonly cancelled: boolean;
  readonly fatal: string | null;
  readonly peakCallsInFlight: number | null;
}

export interface RoundsOutcome extends RoundOutcome {
  /** Why the rounds stopped; null when the run was cancelled or stopped by a refusal first. */
  readonly stop: StopReason | null;
}

const peak = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/** Adds rounds to `first` (the run of `config`) with `runRound` until `goal` is met, printing each verdict. */
export const addRounds = async (
  goal: RoundsGoal,
  config: RunConfig,
  first: RoundOutcome,
  runRound: (config: RunConfig) => Promise<RoundOutcome>,
  out: (text: string) => void,
): Promise<RoundsOutcome> => {
  let outcome = first;
  let trials = config.num_trials;
  for (;;) {
    if (outcome.cancelled || outcome.fatal !== null) return { ...outcome, stop: null };
    const verdict = roundsVerdict(goal, outcome.results.simulations, trials);
    out(`round ${trials}: ${verdict.detail}`);
    if (verdict.stop !== null) return { ...outcome, stop: verdict.stop };
    trials += 1;
    const skip = outcome.results.simulations.map((s) => ({ task_id: s.task_id, trial: s.trial ?? 0 }));
    const round = await runRound({ ...config, num_trials: trials, skip_episodes: skip });
    outcome = {
      ...round,
      results: { ...round.results, simulations: [...outcome.results.simulations, ...round.results.simulations] },
      peakCallsInFlight: peak(outcome.peakCallsInFlight, round.peakCallsInFlight),
    };
  }
};

/** The summary line naming why the rounds stopped. */
export const stopLine = (stop: StopReason): string =>
  ({
    ci_width_reached: 'rounds stopped: ci_width_reached (the target CI width is reached)',
    resolved: 'rounds stopped: resolved (the difference to A is resolved)',
    max_trials: 'rounds stopped: max_trials (the --max-trials per task are spent)',
    baseline_trials: "rounds stopped: baseline_trials (A's trials per task are all paired)",
  })[stop];
