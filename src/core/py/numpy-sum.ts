// numpy's float64 summation and pandas' Series.mean. Hand-written for byte-exact parity: numpy adds in
// pairwise blocks with eight running partial sums, so its result can differ in the last bit from a plain
// left-to-right sum, and the leaderboard compares submitted percentages with `!=`.

/** numpy's block size below which a block is summed without further splitting. */
const BLOCK = 128;

const pairwiseSum = (values: readonly number[], start: number, n: number): number => {
  if (n < 8) {
    let sum = 0;
    for (let i = start; i < start + n; i++) sum += values[i]!;
    return sum;
  }
  if (n <= BLOCK) {
    const partial = values.slice(start, start + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) partial[j]! += values[start + i + j]!;
    const [r0, r1, r2, r3, r4, r5, r6, r7] = partial as [number, number, number, number, number, number, number, number];
    let sum = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) sum += values[start + i]!;
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, n - half);
};

/** `np.sum` of a float64 array. */
export const numpySum = (values: readonly number[]): number => pairwiseSum(values, 0, values.length);

/** pandas `Series.mean()` with missing values as null: they count as 0 in the sum and not in the count; NaN when all are missing. */
export const pandasMean = (values: readonly (number | null)[]): number => {
  const count = values.filter((v) => v !== null).length;
  if (count === 0) return Number.NaN;
  return numpySum(values.map((v) => v ?? 0)) / count;
};
