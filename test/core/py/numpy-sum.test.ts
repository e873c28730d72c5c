// numpy's pairwise float64 sum and pandas' mean, against sums numpy computed (test/fixtures/numpy-sums.json).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { numpySum, pandasMean } from '../../../src/core/py/numpy-sum.ts';

const cases = JSON.parse(await readFile(new URL('../../fixtures/numpy-sums.json', import.meta.url), 'utf8')) as { values: number[]; sum: number }[];

describe('numpySum', () => {
  it.each(cases.map((c) => [c.values.length, c] as const))('%i values: the sum numpy gives, to the last bit', (_, { values, sum }) => {
    expect(numpySum(values)).toBe(sum);
  });

  it('the cases tell it from a left-to-right sum', () => {
    expect(cases.filter((c) => c.values.reduce((a, b) => a + b, 0) !== c.sum).length).toBeGreaterThan(0);
  });
});

describe('pandasMean', () => {
  it('missing values count neither in the sum nor in the count; none present is NaN', () => {
    expect(pandasMean([1, null, 2])).toBe(1.5);
    expect(pandasMean([null, null])).toBeNaN();
    expect(pandasMean([])).toBeNaN();
  });
});
