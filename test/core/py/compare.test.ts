import { describe, it, expect } from 'vitest';
import { compare, compareStrings, isPyError, pyEquals, pyFloat } from '../../../src/core/py/index.ts';
import type { PyJsonable, PyValue } from '../../../src/core/py/index.ts';

const f = pyFloat;
const nan = f(NaN);

describe('pyEquals (Python ==)', () => {
  // [python expression, a, b, python3.11 result]
  const CASES: [string, PyValue, PyValue, boolean][] = [
    ['1 == 1.0', 1, f(1), true],
    ['1 == True', 1, true, true],
    ['0 == False', 0, false, true],
    ['2 == 2.5', 2, f(2.5), false],
    ['"1" == 1', '1', 1, false],
    ['None == 0', null, 0, false],
    ['None == None', null, null, true],
    ['None == False', null, false, false],
    ['[1, 2] == [2, 1]', [1, 2], [2, 1], false],
    ['[1, 2] == [1.0, 2]', [1, 2], [f(1), 2], true],
    ['{"a": 1, "b": 2} == {"b": 2.0, "a": True}', { a: 1, b: 2 }, { b: f(2), a: true }, true],
    ['{"a": 1} == {"a": 1, "b": 2}', { a: 1 }, { a: 1, b: 2 }, false],
    ['{"a": None} == {}', { a: null }, {}, false],
    ['[] == {}', [], {}, false],
    ['[[1]] == [[1.0]]', [[1]], [[f(1)]], true],
    ['nan == nan', nan, nan, false],
    ['[nan] == [nan] (same object)', [nan], [nan], true],
    ['[float("nan")] == [float("nan")]', [f(NaN)], [f(NaN)], false],
    ['-0.0 == 0', f(-0), 0, true],
    ['"a" == "a"', 'a', 'a', true],
  ];
  it.each(CASES)('%s is %s', (_expr, a, b, expected) => {
    expect(pyEquals(a, b)).toBe(expected);
    expect(pyEquals(b, a)).toBe(expected);
  });

  it('compares PyJsonable values by prototype and JSON form', () => {
    class Day implements PyJsonable {
      readonly iso: string;
      constructor(iso: string) {
        this.iso = iso;
      }
      toPyJson(): PyValue {
        return this.iso;
      }
    }
    const a = new Day('2025-02-25') as unknown as PyValue;
    expect(pyEquals(a, new Day('2025-02-25') as unknown as PyValue)).toBe(true);
    expect(pyEquals(a, new Day('2025-02-26') as unknown as PyValue)).toBe(false);
    expect(pyEquals(a, '2025-02-25')).toBe(false);
  });
});

describe('compare (Python ordering)', () => {
  const CASES: [string, PyValue, PyValue, number][] = [
    ['1.0 < 2', f(1), 2, -1],
    ['2 == 2.0', 2, f(2), 0],
    ['"B" < "a"', 'B', 'a', -1],
    ['"\\uff01" < "\\U0001f600" (code points, not UTF-16 units)', '\uff01', '😀', -1],
    ['[1, 2] < [1, 3]', [1, 2], [1, 3], -1],
    ['[1] < [1, 0]', [1], [1, 0], -1],
    ['[2] > [1, 5]', [2], [1, 5], 1],
  ];
  it.each(CASES)('%s', (_expr, a, b, expected) => {
    expect(compare(a, b)).toBe(expected);
  });

  it('is unordered (NaN) when a nan is involved', () => {
    expect(compare(nan, 1)).toBeNaN();
  });

  it("raises Python's TypeError for unorderable pairs", () => {
    const message = (a: PyValue, b: PyValue): string => {
      try {
        compare(a, b);
      } catch (e) {
        return isPyError(e, 'TypeError') ? e.message : 'unexpected';
      }
      return 'no error';
    };
    expect(message(1, 'a')).toBe("'<' not supported between instances of 'int' and 'str'");
    expect(message(null, null)).toBe("'<' not supported between instances of 'NoneType' and 'NoneType'");
  });

  it('sorts strings by code point with compareStrings', () => {
    expect(['😀', '\uff01', 'a', 'B', 'é'].sort(compareStrings)).toEqual(['B', 'a', 'é', '\uff01', '😀']);
  });
});
