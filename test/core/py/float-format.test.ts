import { describe, it, expect } from 'vitest';
import { PyFloat, floatRepr, formatFixed, isPyError, pyFloat, pyRound, roundFloatNumber } from '../../../src/core/py/index.ts';

// Expected strings are python3.11 outputs: repr(x), repr(round(x, n)), format(x, '.Nf').
const REPR_CASES: [number, string][] = [
  [0.1, '0.1'], [100.0, '100.0'], [1e16, '1e+16'], [1e-5, '1e-05'], [0.0001, '0.0001'],
  [1.2345678901234568e17, '1.2345678901234568e+17'], [-0.0, '-0.0'], [0.0, '0.0'], [Infinity, 'inf'],
  [-Infinity, '-inf'], [NaN, 'nan'], [47.84, '47.84'], [2.675, '2.675'], [4.0, '4.0'], [1e15, '1000000000000000.0'],
  [9999999999999998.0, '9999999999999998.0'], [123456789.125, '123456789.125'], [5e-324, '5e-324'],
  [1.7976931348623157e308, '1.7976931348623157e+308'], [-1.5e-7, '-1.5e-07'], [0.3, '0.3'],
  [2 / 3, '0.6666666666666666'], [1e22, '1e+22'], [1e21, '1e+21'], [8.7, '8.7'], [15.1, '15.1'],
];

const ROUND_CASES: [number, number, string][] = [
  [2.675, 2, '2.67'], [0.125, 2, '0.12'], [0.375, 2, '0.38'], [2.5, 0, '2.0'], [3.5, 0, '4.0'], [-2.5, 0, '-2.0'],
  [1.005, 2, '1.0'], [-0.001, 2, '-0.0'], [10 / 3, 2, '3.33'], [1e-5, 2, '0.0'], [1e17, 2, '1e+17'],
  [123.456, -1, '120.0'], [125.0, -1, '120.0'], [135.0, -1, '140.0'], [-0.5, 0, '-0.0'], [0.285, 2, '0.28'],
  [1.0000000000000002, 15, '1.0'], [5e-324, 400, '5e-324'], [1e300, -299, '1e+300'], [0.1 + 0.2, 2, '0.3'],
  [4.35, 1, '4.3'], [8.7 * 3, 2, '26.1'],
];

const FIXED_CASES: [number, number, string][] = [
  [2.675, 2, '2.67'], [0.125, 2, '0.12'], [0.375, 2, '0.38'], [2.5, 0, '2'], [3.5, 0, '4'], [0.5, 0, '0'],
  [-0.0, 2, '-0.00'], [-0.001, 2, '-0.00'], [1e22, 2, '10000000000000000000000.00'], [1.005, 2, '1.00'],
  [123.456, 1, '123.5'], [1 / 3, 10, '0.3333333333'], [8.7, 1, '8.7'], [1e-7, 3, '0.000'], [99.995, 2, '100.00'],
  [0.045, 2, '0.04'], [-2.5, 0, '-2'],
];

describe('floatRepr', () => {
  it.each(REPR_CASES)('repr(%s) is %s', (x, expected) => {
    expect(floatRepr(x)).toBe(expected);
  });

  it('PyFloat.toString is the Python repr', () => {
    expect(String(pyFloat(100))).toBe('100.0');
    expect(`${pyFloat(1e-5)}`).toBe('1e-05');
  });
});

describe('pyRound (CPython round(float, n))', () => {
  it.each(ROUND_CASES)('round(%s, %s) is %s', (x, n, expected) => {
    expect(floatRepr(pyRound(pyFloat(x), n).value)).toBe(expected);
  });

  it('always returns a PyFloat, even for an integral result', () => {
    const r = pyRound(4, 2);
    expect(r).toBeInstanceOf(PyFloat);
    expect(r.value).toBe(4);
  });

  it('keeps nan and inf unchanged', () => {
    expect(roundFloatNumber(NaN, 2)).toBeNaN();
    expect(roundFloatNumber(-Infinity, 2)).toBe(-Infinity);
  });

  it('raises OverflowError when the rounded value does not fit a double', () => {
    let caught: unknown;
    try {
      roundFloatNumber(1.7976931348623157e308, -308);
    } catch (e) {
      caught = e;
    }
    expect(isPyError(caught, 'OverflowError') && caught.message).toBe('rounded value too large to represent');
  });
});

describe('formatFixed (f"{x:.Nf}")', () => {
  it.each(FIXED_CASES)('format(%s, ".%sf") is %s', (x, n, expected) => {
    expect(formatFixed(x, n)).toBe(expected);
  });

  it('formats non-finite values like Python', () => {
    expect([formatFixed(NaN, 2), formatFixed(Infinity, 1), formatFixed(-Infinity, 1)]).toEqual(['nan', 'inf', '-inf']);
  });

  it('accepts a PyFloat', () => {
    expect(formatFixed(pyFloat(8.75), 1)).toBe('8.8');
  });
});
