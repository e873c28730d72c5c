import { describe, it, expect } from 'vitest';
import {
  PyFloat, add, floordiv, isFloatValue, isIntValue, isPyFloat, mod, mul, neg, pow, pyFloat,
  pyRoundBuiltin, pyTypeName, sub, toNumber, truediv,
} from '../../../src/core/py/index.ts';
import { raised } from '../../support/py.ts';
import type { PyNumber } from '../../../src/core/py/index.ts';

const f = pyFloat;

/** Python's `type(r).__name__` and `repr(r)` of a result. */
const described = (r: number | PyFloat): [string, string] => [isPyFloat(r) ? 'float' : 'int', String(r)];

// [python expression, result, python type, python repr] — outputs of python3.11 eval().
const ARITHMETIC: [string, () => number | PyFloat, string, string][] = [
  ['2+3', () => add(2, 3), 'int', '5'],
  ['2+3.0', () => add(2, f(3)), 'float', '5.0'],
  ['2.5+2.5', () => add(f(2.5), f(2.5)), 'float', '5.0'],
  ['True+1', () => add(true, 1), 'int', '2'],
  ['True+1.5', () => add(true, f(1.5)), 'float', '2.5'],
  ['7-10', () => sub(7, 10), 'int', '-3'],
  ['7.0-10', () => sub(f(7), 10), 'float', '-3.0'],
  ['3*4', () => mul(3, 4), 'int', '12'],
  ['3*4.0', () => mul(3, f(4)), 'float', '12.0'],
  ['0.1*3', () => mul(f(0.1), 3), 'float', '0.30000000000000004'],
  ['-3*0', () => mul(-3, 0), 'int', '0'],
  ['7/2', () => truediv(7, 2), 'float', '3.5'],
  ['6/3', () => truediv(6, 3), 'float', '2.0'],
  ['1/3', () => truediv(1, 3), 'float', '0.3333333333333333'],
  ['7//2', () => floordiv(7, 2), 'int', '3'],
  ['-7//2', () => floordiv(-7, 2), 'int', '-4'],
  ['7//-2', () => floordiv(7, -2), 'int', '-4'],
  ['-7.5//2', () => floordiv(f(-7.5), 2), 'float', '-4.0'],
  ['7.5//-2', () => floordiv(f(7.5), -2), 'float', '-4.0'],
  ['-0.0//1', () => floordiv(f(-0), 1), 'float', '-0.0'],
  ['0.0//-1', () => floordiv(f(0), -1), 'float', '-0.0'],
  ['1e300//1e-300', () => floordiv(f(1e300), f(1e-300)), 'float', 'inf'],
  ['7%3', () => mod(7, 3), 'int', '1'],
  ['-7%3', () => mod(-7, 3), 'int', '2'],
  ['7%-3', () => mod(7, -3), 'int', '-2'],
  ['-7.5%2', () => mod(f(-7.5), 2), 'float', '0.5'],
  ['7.5%-2', () => mod(f(7.5), -2), 'float', '-0.5'],
  ['-0.0%1', () => mod(f(-0), 1), 'float', '0.0'],
  ['0.0%-1', () => mod(f(0), -1), 'float', '-0.0'],
  ['-5%5', () => mod(-5, 5), 'int', '0'],
  ['2**10', () => pow(2, 10), 'int', '1024'],
  ['2**-1', () => pow(2, -1), 'float', '0.5'],
  ['2**0.5', () => pow(2, f(0.5)), 'float', '1.4142135623730951'],
  ['(-8)**2', () => pow(-8, 2), 'int', '64'],
  ['(-8.0)**3', () => pow(f(-8), 3), 'float', '-512.0'],
  ['4**0.5', () => pow(4, f(0.5)), 'float', '2.0'],
  ['0**0', () => pow(0, 0), 'int', '1'],
  ['0.0**0', () => pow(f(0), 0), 'float', '1.0'],
  ['10**2.0', () => pow(10, f(2)), 'float', '100.0'],
  ['-(5)', () => neg(5), 'int', '-5'],
  ['-(0)', () => neg(0), 'int', '0'],
  ['-(2.0)', () => neg(f(2)), 'float', '-2.0'],
  ['-(0.0)', () => neg(f(0)), 'float', '-0.0'],
];

describe('arithmetic kind rules', () => {
  it.each(ARITHMETIC)('%s gives %s', (_expr, compute, type, repr) => {
    expect(described(compute())).toEqual([type, repr]);
  });

  it('treats a primitive non-integral number as a float operand', () => {
    expect(described(add(0.5, 1))).toEqual(['float', '1.5']);
  });
});

describe('pow is correctly rounded like glibc, not like Math.pow', () => {
  // V8's Math.pow returns 0.7071067811865475, 0.020408163265306124, 1.0000000000000001e-21 and
  // 2.82842712474619 for these; CPython (glibc pow) returns the correctly rounded values below.
  const CASES: [string, () => number | PyFloat, string][] = [
    ['2**-0.5', () => pow(2, f(-0.5)), '0.7071067811865476'],
    ['7**-2', () => pow(7, -2), '0.02040816326530612'],
    ['1000**-7', () => pow(1000, -7), '1e-21'],
    ['2**1.5', () => pow(2, f(1.5)), '2.8284271247461903'],
    ['1.05**3', () => pow(f(1.05), 3), '1.1576250000000001'],
    ['10.0**-320', () => pow(f(10), -320), '1e-320'],
    ['1.5**-1800', () => pow(f(1.5), -1800), '1.0857597e-317'],
  ];
  it.each(CASES)('%s is %s', (_expr, compute, repr) => {
    expect(String(compute())).toBe(repr);
  });
});

describe('Python error messages', () => {
  const CASES: [string, () => unknown, string][] = [
    ['1/0', () => truediv(1, 0), 'ZeroDivisionError: division by zero'],
    ['1.0/0', () => truediv(f(1), 0), 'ZeroDivisionError: float division by zero'],
    ['1/0.0', () => truediv(1, f(0)), 'ZeroDivisionError: float division by zero'],
    ['1//0', () => floordiv(1, 0), 'ZeroDivisionError: integer division or modulo by zero'],
    ['1.0//0', () => floordiv(f(1), 0), 'ZeroDivisionError: float floor division by zero'],
    ['1%0', () => mod(1, 0), 'ZeroDivisionError: integer modulo by zero'],
    ['1.0%0', () => mod(f(1), 0), 'ZeroDivisionError: float modulo'],
    ['0**-1', () => pow(0, -1), 'ZeroDivisionError: 0.0 cannot be raised to a negative power'],
    ['10.0**400', () => pow(f(10), 400), "OverflowError: (34, 'Numerical result out of range')"],
    ["'a'+1", () => add('a' as unknown as PyNumber, 1), "TypeError: unsupported operand type(s) for +: 'str' and 'int'"],
    ['round(nan)', () => pyRoundBuiltin(f(NaN)), 'ValueError: cannot convert float NaN to integer'],
    ['round(inf)', () => pyRoundBuiltin(f(Infinity)), 'OverflowError: cannot convert float infinity to integer'],
  ];
  it.each(CASES)('%s raises %s', (_expr, compute, message) => {
    expect(raised(compute)).toBe(message);
  });

  it('refuses a negative base with a fractional exponent (Python would return a complex)', () => {
    expect(raised(() => pow(-8, f(1 / 3)))).toMatch(/^ComplexResultError: /);
  });
});

describe('pyRoundBuiltin (round(x, ndigits=None))', () => {
  const CASES: [string, () => number | PyFloat, string, string][] = [
    ['round(2.5)', () => pyRoundBuiltin(f(2.5)), 'int', '2'],
    ['round(3.5)', () => pyRoundBuiltin(f(3.5)), 'int', '4'],
    ['round(-0.5)', () => pyRoundBuiltin(f(-0.5)), 'int', '0'],
    ['round(7)', () => pyRoundBuiltin(7), 'int', '7'],
    ['round(7, 2)', () => pyRoundBuiltin(7, 2), 'int', '7'],
    ['round(1234, -2)', () => pyRoundBuiltin(1234, -2), 'int', '1200'],
    ['round(1250, -2)', () => pyRoundBuiltin(1250, -2), 'int', '1200'],
    ['round(1350, -2)', () => pyRoundBuiltin(1350, -2), 'int', '1400'],
    ['round(-1250, -2)', () => pyRoundBuiltin(-1250, -2), 'int', '-1200'],
    ['round(2.675, 2)', () => pyRoundBuiltin(f(2.675), 2), 'float', '2.67'],
  ];
  it.each(CASES)('%s gives %s %s', (_expr, compute, type, repr) => {
    expect(described(compute())).toEqual([type, repr]);
  });
});

describe('kinds', () => {
  it('boxes every float source, whatever its value', () => {
    const two = pyFloat(2);
    expect([isPyFloat(two), two.value, two.valueOf(), String(two)]).toEqual([true, 2, 2, '2.0']);
    expect(pyFloat(two)).toBe(two);
  });

  it('classifies int and float values, tolerating primitive non-integral numbers as floats', () => {
    expect([isFloatValue(f(2)), isFloatValue(2.5), isFloatValue(NaN), isFloatValue(2), isFloatValue(true)])
      .toEqual([true, true, true, false, false]);
    expect([isIntValue(2), isIntValue(-0), isIntValue(2.5), isIntValue(f(2)), isIntValue(true)])
      .toEqual([true, true, false, false, false]);
  });

  it('converts to a JS number', () => {
    expect([toNumber(f(1.5)), toNumber(3), toNumber(true)]).toEqual([1.5, 3, 1]);
  });

  it('names Python types', () => {
    expect([2, f(2), 2.5, true, 's', null, [1], { a: 1 }].map(pyTypeName))
      .toEqual(['int', 'float', 'float', 'bool', 'str', 'NoneType', 'list', 'dict']);
  });
});
