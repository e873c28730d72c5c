// The order statistics the benchmarks print: a sample's q-quantile (the value at rank ⌊q·n⌋ of the sorted
// samples, no interpolation) and its median (p50).

export const quantile = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
