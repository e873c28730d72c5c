import { describe, it, expect } from 'vitest';
import { pyFloat, pyRepr, pyStr } from '../../../src/core/py/index.ts';
import type { PyJsonable, PyValue } from '../../../src/core/py/index.ts';

const f = pyFloat;

// [text, python3.11 repr(text)]
const STRING_REPRS: [string, string][] = [
  ['plain', "'plain'"],
  ["it's", '"it\'s"'],
  ['say "hi"', '\'say "hi"\''],
  ['both \' and "', '\'both \\\' and "\''],
  ['back\\slash', "'back\\\\slash'"],
  ['tab\tnl\nret\r', "'tab\\tnl\\nret\\r'"],
  ['\x00\x07\x1b\x7f', "'\\x00\\x07\\x1b\\x7f'"],
  ['café', "'café'"],
  ['📶⁴ Excellent', "'📶⁴ Excellent'"],
  ['\xa0nbsp', "'\\xa0nbsp'"],
  ['\u3000ideo', "'\\u3000ideo'"],
  ['\u200bzw', "'\\u200bzw'"],
  ['\xad', "'\\xad'"],
  ['\u2028', "'\\u2028'"],
  ['\u{e0001}', "'\\U000e0001'"],
  ['\ud800', "'\\ud800'"],
  ['', "''"],
  [' ', "' '"],
  ['\x85', "'\\x85'"],
];

describe('pyRepr of strings', () => {
  it.each(STRING_REPRS)('repr(%j) is %s', (text, expected) => {
    expect(pyRepr(text)).toBe(expected);
  });
});

describe('pyRepr and pyStr of values', () => {
  // [value, python3.11 repr(value), str(value)]
  const CASES: [PyValue, string, string][] = [
    [[1, 'a', null], "[1, 'a', None]", "[1, 'a', None]"],
    [{ k: 'v', n: f(2) }, "{'k': 'v', 'n': 2.0}", "{'k': 'v', 'n': 2.0}"],
    [[true, false, [], {}], '[True, False, [], {}]', '[True, False, [], {}]'],
    [{ nested: { list: [f(1.5), f(-0), f(1e16), f(1e-5)] } }, "{'nested': {'list': [1.5, -0.0, 1e+16, 1e-05]}}", "{'nested': {'list': [1.5, -0.0, 1e+16, 1e-05]}}"],
    ['x', "'x'", 'x'],
    [f(2), '2.0', '2.0'],
    [2, '2', '2'],
    [f(1e16), '1e+16', '1e+16'],
    [null, 'None', 'None'],
    [true, 'True', 'True'],
    [false, 'False', 'False'],
  ];
  it.each(CASES)('repr/str of %j', (value, repr, str) => {
    expect([pyRepr(value), pyStr(value)]).toEqual([repr, str]);
  });

  it('treats a primitive non-integral number as a float and undefined as None', () => {
    expect([pyStr(8.7), pyStr(undefined), pyRepr([undefined] as unknown as PyValue)]).toEqual(['8.7', 'None', '[None]']);
  });

  it('prints a self-containing list or dict with an ellipsis, as Python does', () => {
    const list: PyValue[] = [1];
    list.push(list);
    const dict: Record<string, PyValue> = {};
    dict.me = dict;
    expect([pyRepr(list), pyRepr(dict)]).toEqual(['[1, [...]]', "{'me': {...}}"]);
  });

  it('uses the toPyStr/toPyRepr hooks of a PyJsonable, falling back to its JSON form', () => {
    const member: PyJsonable = {
      toPyJson: () => 'excellent',
      toPyStr: () => 'PerformanceLevel.EXCELLENT',
      toPyRepr: () => "<PerformanceLevel.EXCELLENT: 'excellent'>",
    };
    const date: PyJsonable = { toPyJson: () => '2025-02-25' };
    const details = { level: member } as unknown as PyValue;
    expect(pyStr(details)).toBe("{'level': <PerformanceLevel.EXCELLENT: 'excellent'>}");
    expect(pyStr(member as unknown as PyValue)).toBe('PerformanceLevel.EXCELLENT');
    expect(pyStr(date as unknown as PyValue)).toBe('2025-02-25');
  });
});
