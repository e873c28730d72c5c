// Per-trial seeds derived from the run seed with CPython's `random` (reference: runner/batch.py prepare_batch).
import { PyRandom } from '../py/index.ts';

export const DEFAULT_SEED = 300;

/** `random.seed(seed); [random.randint(0, 1000000) for _ in range(num_trials)]`. */
export const trialSeeds = (seed: number, numTrials: number): number[] => {
  const rng = new PyRandom();
  rng.seed(seed);
  return Array.from({ length: numTrials }, () => rng.randint(0, 1_000_000));
};

/** The seed of a repair's continuation: drawn from its source's, so that it differs from its source, reproducibly. */
export const repairSeed = (sourceSeed: number | null): number => trialSeeds(sourceSeed ?? DEFAULT_SEED, 1)[0]!;

