// Student's t and normal quantiles for confidence intervals and the paired t-test. The t distribution comes from
// stdlib (the same figures as scipy.stats.t to double precision); the two normal quantiles are constants.
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantileOf from '@stdlib/stats-base-dists-t-quantile';

/** z(0.975): the half-width of a 95% normal interval in standard errors. */
export const Z_975 = 1.959963984540054;
/** z(0.8): the extra standard errors that give a test 80% power. */
export const Z_80 = 0.8416212335729143;

/** The p-quantile of Student's t with `df` degrees of freedom (scipy.stats.t.ppf). */
export const tQuantile = (p: number, df: number): number => tQuantileOf(p, df);

/** The two-sided p-value of a t statistic with `df` degrees of freedom (2·(1 − F(|t|))). */
export const twoSidedP = (t: number, df: number): number => 2 * tCdf(-Math.abs(t), df);
