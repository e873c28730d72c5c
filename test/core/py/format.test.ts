import { describe, expect, it } from 'vitest';
import { PyFloat, pyFormatFixed, pyTitle, pyToFloat } from '../../../src/core/py/index.ts';
import { raised } from '../../support/py.ts';
import type { PyValue } from '../../../src/core/py/index.ts';

// Expected values are python3 outputs of float(x), f"{x:.2f}" and str.title().

describe('pyToFloat', () => {
  it.each([
    ['1_000.5', 1000.5], [' 12 ', 12], ['1e3', 1000], ['.5', 0.5], ['5.', 5], ['inf', Infinity], ['-Infinity', -Infinity],
  ] as const)('float(%j) is %s', (text, value) => {
    const result = pyToFloat(text);
    expect(result).toBeInstanceOf(PyFloat);
    expect(result.value).toBe(value);
  });

  it('float("nan") is nan; numbers and bools become floats', () => {
    expect(Number.isNaN(pyToFloat('nan').value)).toBe(true);
    expect(pyToFloat(3).value).toBe(3);
    expect(pyToFloat(true).value).toBe(1);
  });

  it.each(['1__0', 'abc', '1.2.3', '', '_1'])('float(%j) raises ValueError', (text) => {
    expect(raised(() => pyToFloat(text))).toBe(`ValueError: could not convert string to float: '${text}'`);
  });

  it('float(None) and float([1]) raise TypeError', () => {
    expect(raised(() => pyToFloat(null))).toBe("TypeError: float() argument must be a string or a real number, not 'NoneType'");
    expect(raised(() => pyToFloat([1]))).toBe("TypeError: float() argument must be a string or a real number, not 'list'");
  });
});

describe('pyFormatFixed', () => {
  it('formats bools, ints and floats as floats, rounding the exact binary value', () => {
    expect([true, 7, new PyFloat(2.675), -0.001].map((v) => pyFormatFixed(v, 2))).toEqual(['1.00', '7.00', '2.67', '-0.00']);
  });

  it.each([
    ['x', "ValueError: Unknown format code 'f' for object of type 'str'"],
    [null, 'TypeError: unsupported format string passed to NoneType.__format__'],
    [[1], 'TypeError: unsupported format string passed to list.__format__'],
    [{}, 'TypeError: unsupported format string passed to dict.__format__'],
  ] as [PyValue, string][])('f"{%j:.2f}" raises', (value, message) => {
    expect(raised(() => pyFormatFixed(value, 2))).toBe(message);
  });
});

describe('pyTitle', () => {
  it('capitalizes after every uncased character, lower-cases inside words', () => {
    expect(pyTitle('goods_services_NOT received')).toBe('Goods_Services_Not Received');
    expect(pyTitle("it's a test-case 2x")).toBe("It'S A Test-Case 2X");
  });
});
