// Per-trial seeds derived from the run seed with CPython's `random` (reference: runner/batch.py prepare_batch).
import { PyRandom } from '../py/index.ts';

export const DEFAULT_SEED = 300;

/** `random.seed(seed); [random.randint(0, 1000000) for _ in range(num_trials)]`. */
export const trialSeeds = (seed: number, numTrials: number): number[] => {
  const rng = new PyRandom();
  rng.seed(seed);
  return Array.from({ length: numTrials }, () => rng.randint(0, 1_000_000));
};

/** The seed of a fork's continuation: drawn from its source's, so that continuations differ from their source and from one another, reproducibly. */
export const forkSeed = (sourceSeed: number | null): number => trialSeeds(sourceSeed ?? DEFAULT_SEED, 1)[0]!;

/** The seeds of n continuations of one source: each drawn from the one before. */
export const forkSeeds = (sourceSeed: number | null, n: number): number[] => {
  const seeds: number[] = [];
  for (let seed = sourceSeed; seeds.length < n; ) seeds.push((seed = forkSeed(seed)));
  return seeds;
};
