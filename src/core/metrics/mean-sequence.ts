// An anytime-valid confidence sequence for the average reward, for a run that adds trials until its CI is narrow:
// the predictable plug-in empirical-Bernstein CS of Waudby-Smith & Ramdas (2024), "Estimating means of bounded
// random variables by betting", JRSS-B 86(1), Theorem 2, for rewards in [0, 1]. A fixed-sample CI does not keep its
// coverage when the run stops on its width: a first round whose rewards are all equal has a standard error of 0
// and would stop at once. This interval holds at every round simultaneously, so stopping on its width is sound.
// Observations are taken in a fixed order (trial, then task), each bet chosen before its observation is seen.

export interface MeanInterval {
  readonly n: number;
  readonly low: number;
  readonly high: number;
}

/** Bets are truncated at c = 1/2 (WSR 2024, eq. 26). */
const MAX_BET = 1 / 2;

/** ψ_E(λ) = (−log(1 − λ) − λ) / 4. */
const psi = (lambda: number): number => (-Math.log1p(-lambda) - lambda) / 4;

/** The (1 − α) confidence sequence's interval after `rewards`, clipped to [0, 1]; [0, 1] before any reward. */
export const meanInterval = (rewards: readonly number[], alpha = 0.05): MeanInterval => {
  const log2a = Math.log(2 / alpha);
  let sum = 0;
  let squares = 0;
  let weighted = 0;
  let lambdas = 0;
  let penalty = 0;
  rewards.forEach((x, at) => {
    if (!(x >= 0 && x <= 1)) throw new RangeError(`A reward lies in [0, 1], got ${x}`);
    const i = at + 1;
    const variance = (1 / 4 + squares) / i;
    const previousMean = (1 / 2 + sum) / i;
    const lambda = Math.min(MAX_BET, Math.sqrt((2 * log2a) / (variance * i * Math.log(i + 1))));
    weighted += lambda * x;
    lambdas += lambda;
    penalty += 4 * (x - previousMean) ** 2 * psi(lambda);
    sum += x;
    squares += (x - (1 / 2 + sum) / (i + 1)) ** 2;
  });
  if (rewards.length === 0) return { n: 0, low: 0, high: 1 };
  const centre = weighted / lambdas;
  const half = (log2a + penalty) / lambdas;
  return { n: rewards.length, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
};
