import { describe, it, expect } from 'vitest';
import {
  DuplicateKeyError, PyFloat, PyJsonDecodeError, dumpsPy, isPyError, isPyFloat, parsePyJson, pyFloat, sha256Hex,
} from '../../../src/core/py/index.ts';
import type { PyJsonable, PyValue } from '../../../src/core/py/index.ts';
import { readDataFile } from './data-files.ts';

const f = pyFloat;

/** Python `json.dumps` outputs of python3.11 for the value built in `nested()`. */
const NESTED_TEXT =
  '{"user_id": "mia_li_3668", "name": {"first_name": "Mia", "last_name": "Li"}, "amount": 100.0, "count": 2, ' +
  '"ratio": 1e-05, "big": 1e+16, "flags": [true, false, null], "empty_list": [], "empty_dict": {}, ' +
  '"mixed": [1, 2.5, "x", [[]], {"k": [{}]}]}';
const NESTED_INDENT_2 =
  '{\n  "user_id": "mia_li_3668",\n  "name": {\n    "first_name": "Mia",\n    "last_name": "Li"\n  },\n  "amount": 100.0,\n  "count": 2,\n  "ratio": 1e-05,\n  "big": 1e+16,\n  "flags": [\n    true,\n    false,\n    null\n  ],\n  "empty_list": [],\n  "empty_dict": {},\n  "mixed": [\n    1,\n    2.5,\n    "x",\n    [\n      []\n    ],\n    {\n      "k": [\n        {}\n      ]\n    }\n  ]\n}';
const NESTED_INDENT_4_SORTED =
  '{\n    "amount": 100.0,\n    "big": 1e+16,\n    "count": 2,\n    "empty_dict": {},\n    "empty_list": [],\n    "flags": [\n        true,\n        false,\n        null\n    ],\n    "mixed": [\n        1,\n        2.5,\n        "x",\n        [\n            []\n        ],\n        {\n            "k": [\n                {}\n            ]\n        }\n    ],\n    "name": {\n        "first_name": "Mia",\n        "last_name": "Li"\n    },\n    "ratio": 1e-05,\n    "user_id": "mia_li_3668"\n}';
const NESTED_INDENT_0 =
  '{\n"user_id": "mia_li_3668",\n"name": {\n"first_name": "Mia",\n"last_name": "Li"\n},\n"amount": 100.0,\n"count": 2,\n"ratio": 1e-05,\n"big": 1e+16,\n"flags": [\ntrue,\nfalse,\nnull\n],\n"empty_list": [],\n"empty_dict": {},\n"mixed": [\n1,\n2.5,\n"x",\n[\n[]\n],\n{\n"k": [\n{}\n]\n}\n]\n}';

const nested = (): PyValue => ({
  user_id: 'mia_li_3668',
  name: { first_name: 'Mia', last_name: 'Li' },
  amount: f(100),
  count: 2,
  ratio: f(1e-5),
  big: f(1e16),
  flags: [true, false, null],
  empty_list: [],
  empty_dict: {},
  mixed: [1, f(2.5), 'x', [[]], { k: [{}] }],
});

const UNICODE: PyValue = {
  status_bar: '📶⁴ Excellent | 5G',
  name: 'café',
  ctrl: 'a"b\\c\nd\re\tf\bg\fh\x00i\x1fj\x7fk',
  sep: '\u2028\u2029',
  bom: '\ufeff',
};

describe('dumpsPy (json.dumps)', () => {
  it('writes Python separators, float reprs and literals on one line by default', () => {
    expect(dumpsPy(nested())).toBe(NESTED_TEXT);
  });

  it('indents like Python with indent=2, including empty containers', () => {
    expect(dumpsPy(nested(), { indent: 2 })).toBe(NESTED_INDENT_2);
  });

  it('indents with indent=4 and sort_keys', () => {
    expect(dumpsPy(nested(), { indent: 4, sortKeys: true })).toBe(NESTED_INDENT_4_SORTED);
  });

  it('breaks lines without indentation for indent=0', () => {
    expect(dumpsPy(nested(), { indent: 0 })).toBe(NESTED_INDENT_0);
  });

  it('escapes non-ASCII as lowercase \\uXXXX with surrogate pairs, and control characters', () => {
    expect(dumpsPy(UNICODE)).toBe(
      '{"status_bar": "\\ud83d\\udcf6\\u2074 Excellent | 5G", "name": "caf\\u00e9", ' +
        '"ctrl": "a\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0000i\\u001fj\\u007fk", "sep": "\\u2028\\u2029", "bom": "\\ufeff"}',
    );
  });

  it('keeps non-ASCII (and DEL) verbatim with ensure_ascii=False, still escaping control characters', () => {
    expect(dumpsPy(UNICODE, { ensureAscii: false })).toBe(
      '{"status_bar": "📶⁴ Excellent | 5G", "name": "café", ' +
        '"ctrl": "a\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0000i\\u001fj\x7fk", "sep": "\u2028\u2029", "bom": "\ufeff"}',
    );
  });

  it('sorts keys by code point: uppercase before lowercase, astral after U+FF01', () => {
    const keys: PyValue = { b: 1, B: 2, a: 3, _: 4, é: 5, z: 6, '😀': 7, '\uff01': 8, '': 9, aa: 10, A: 11 };
    expect(dumpsPy(keys, { sortKeys: true })).toBe(
      '{"": 9, "A": 11, "B": 2, "_": 4, "a": 3, "aa": 10, "b": 1, "z": 6, "\\u00e9": 5, "\\uff01": 8, "\\ud83d\\ude00": 7}',
    );
  });

  it('writes nan and infinities as NaN/Infinity, -0.0 as a float and -0 as the int 0', () => {
    const values: PyValue = [f(NaN), f(Infinity), f(-Infinity), f(-0), f(0), f(2), f(1e22), f(1e-7), -0, 0.5];
    expect(dumpsPy(values)).toBe('[NaN, Infinity, -Infinity, -0.0, 0.0, 2.0, 1e+22, 1e-07, 0, 0.5]');
  });

  it('writes an int of 1e21 or more with all its digits, never in exponent form', () => {
    expect(dumpsPy([1e21, 2 ** 70])).toBe('[1000000000000000000000, 1180591620717411303424]');
  });

  it('writes an int past 2**53 with the exact digits of its value, as Python writes that int', () => {
    expect(dumpsPy([2 ** 53 + 2, 2 ** 60, -(2 ** 60), 2 ** 53 - 1])).toBe('[9007199254740994, 1152921504606846976, -1152921504606846976, 9007199254740991]');
  });

  it('serializes an object with toPyJson through it (default=str), at the right indentation', () => {
    const date: PyJsonable = { toPyJson: () => '2025-01-15 10:30:00' };
    expect(dumpsPy({ at: date } as unknown as PyValue)).toBe('{"at": "2025-01-15 10:30:00"}');
    const nestedJson: PyJsonable = { toPyJson: () => ({ a: [1] }) };
    expect(dumpsPy([nestedJson] as unknown as PyValue, { indent: 2 })).toBe('[\n  {\n    "a": [\n      1\n    ]\n  }\n]');
  });

  it('raises TypeError for undefined and other values outside the Python domain', () => {
    const attempt = (v: unknown): string => {
      try {
        return dumpsPy(v as PyValue);
      } catch (e) {
        return isPyError(e, 'TypeError') ? e.message : 'unexpected';
      }
    };
    expect(attempt({ a: undefined })).toBe('Object of type undefined is not JSON serializable');
    expect(attempt([new Date(0)])).toBe('Object of type Date is not JSON serializable');
  });

  it('raises ValueError on a circular reference', () => {
    const loop: PyValue[] = [];
    loop.push(loop);
    let message = '';
    try {
      dumpsPy(loop);
    } catch (e) {
      message = isPyError(e, 'ValueError') ? e.message : 'unexpected';
    }
    expect(message).toBe('Circular reference detected');
  });

  it('writes the same object twice when it is shared but not circular', () => {
    const shared: PyValue = { k: 1 };
    expect(dumpsPy([shared, shared])).toBe('[{"k": 1}, {"k": 1}]');
  });
});

describe('parsePyJson (json.loads)', () => {
  it('keeps number kinds: 2 is an int, 2.0, 2e3 and -0.0 are floats', () => {
    const parsed = parsePyJson('[2, 2.0, 2e3, -0.0, -0, 1E400, -1.5e-3, 123456789.0]') as PyValue[];
    expect(parsed.map((v) => (isPyFloat(v) ? 'float' : typeof v))).toEqual([
      'number', 'float', 'float', 'float', 'number', 'float', 'float', 'float',
    ]);
    expect(dumpsPy(parsed)).toBe('[2, 2.0, 2000.0, -0.0, 0, Infinity, -0.0015, 123456789.0]');
    expect(Object.is(parsed[4], 0)).toBe(true);
  });

  it('accepts NaN, Infinity and -Infinity as floats', () => {
    const [nan, inf, ninf] = parsePyJson('[NaN, Infinity, -Infinity]') as PyFloat[];
    expect([nan?.value, inf?.value, ninf?.value]).toEqual([NaN, Infinity, -Infinity]);
    expect(isPyFloat(nan)).toBe(true);
  });

  it('decodes escapes, surrogate pairs and keeps a later duplicate key in the first position', () => {
    const v = parsePyJson('{"a": "\\ud83d\\udcf6\\u00e9\\/\\b\\f\\n\\r\\t\\"\\\\", "b": 1, "a": 2}');
    expect(v).toEqual({ a: 2, b: 1 });
    expect(Object.keys(v as object)).toEqual(['a', 'b']);
    expect((parsePyJson('"\\ud83d\\udcf6\\u00e9\\/"') as string)).toBe('📶é/');
  });

  it('stores a "__proto__" key as data, not as the prototype', () => {
    const v = parsePyJson('{"__proto__": {"x": 1}}') as Record<string, PyValue>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(dumpsPy(v)).toBe('{"__proto__": {"x": 1}}');
  });

  // Messages of python3.11 json.loads(text).
  const ERRORS: [string, string][] = [
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    [' ', 'Expecting value: line 1 column 2 (char 1)'],
    ['{', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['[', 'Expecting value: line 1 column 2 (char 1)'],
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['{"a":1,}', 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['{a:1}', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['"a\\x"', 'Invalid \\escape: line 1 column 3 (char 2)'],
    ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['"\\u12G4"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['"a\nb"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['1 2', 'Extra data: line 1 column 3 (char 2)'],
    ['01', 'Extra data: line 1 column 2 (char 1)'],
    ['-', 'Expecting value: line 1 column 1 (char 0)'],
    ['1.', 'Extra data: line 1 column 2 (char 1)'],
    ['1e5e', 'Extra data: line 1 column 4 (char 3)'],
    ['nul', 'Expecting value: line 1 column 1 (char 0)'],
    ['NaNx', 'Extra data: line 1 column 4 (char 3)'],
    ['[1,\n  2,\n  x]', 'Expecting value: line 3 column 3 (char 11)'],
    ['{"\ud83d\ude00": x}', 'Expecting value: line 1 column 7 (char 6)'],
    ['\ufeff1', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ['"\\', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['{"a": }', 'Expecting value: line 1 column 7 (char 6)'],
  ];
  it.each(ERRORS)('rejects %j with "%s"', (text, message) => {
    let caught: unknown;
    try {
      parsePyJson(text);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PyJsonDecodeError);
    expect((caught as PyJsonDecodeError).message).toBe(message);
  });

  it('exposes msg, pos, lineno and colno like json.JSONDecodeError', () => {
    try {
      parsePyJson('[1,\n  2,\n  x]');
    } catch (e) {
      const err = e as PyJsonDecodeError;
      expect([err.pyType, err.msg, err.pos, err.lineno, err.colno]).toEqual(['JSONDecodeError', 'Expecting value', 11, 3, 3]);
      return;
    }
    expect.unreachable('no error raised');
  });

  it('keeps the last of a repeated key, as Python does; with uniqueKeys refuses it, naming where', () => {
    expect(parsePyJson('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    const duplicate = (text: string) => {
      try {
        parsePyJson(text, { uniqueKeys: true });
      } catch (e) {
        return e instanceof DuplicateKeyError ? [e.path, e.key] : e;
      }
      return null;
    };
    expect(duplicate('{"a": 1, "a": 2}')).toEqual(['', 'a']);
    expect(duplicate('{"run": {"llm_args": [{}, {"x": 1, "x": 1}]}}')).toEqual(['run.llm_args.1', 'x']);
    expect(duplicate('{"__proto__": 1, "__proto__": 2}')).toEqual(['', '__proto__']);
    expect(duplicate('{"m": {"0": 1, "0": 2}}')).toEqual(['m', '0']);
    expect(duplicate('{"a": {"b": 1}, "c": [{"b": 2}], "b": 3}')).toBeNull();
  });
});

describe('round trip of reference data files', () => {
  // sha256 of python3.11 json.dumps(json.load(open(F)), ...) for the reference data files.
  const CASES: [string, string, { sortKeys?: boolean; indent?: number }, string][] = [
    ['domains/mock/tasks.json', '0d8bcd14798bf2e6e082432147f62570c57b0897b4e4e388c95bb02ecbe5d8cf', {}, 'b4ddfb4c61e5c3ebe20760558a61f9961ac564c8f32d6ab8425e5eaa15dd0b8f'],
    ['domains/mock/tasks.json', '0d8bcd14798bf2e6e082432147f62570c57b0897b4e4e388c95bb02ecbe5d8cf', { sortKeys: true }, 'bc80a35596d1948d76b2c77a1694195a3ed7331879efb55f9f460046b08039d9'],
    ['domains/mock/tasks.json', '0d8bcd14798bf2e6e082432147f62570c57b0897b4e4e388c95bb02ecbe5d8cf', { indent: 2 }, '80e4749b46bd9616954c70ad95d9e3a0fa4290f04fe69ce03b4358955083cd62'],
    ['domains/airline/tasks.json', 'ccd8ba737b4cc371415af70151187788f728d6108d0916e73bb4317b40542052', {}, '550473f09b32b63945f6204f2671634d362d0862abe85fa56b47c256c50eb86f'],
    ['domains/retail/tasks.json', '8e03ebce7901bd6218e7a7dc3105faa9324091a68058f7fe61c65262868812e8', {}, '1e44a10264feddc700a2d6b9de8cfe8a16bda8c8eace6922ee68bca9cf4c6c15'],
    ['domains/telecom/tasks.json', '37e562e1ae3242577407e1303b1548bc64e7ea68e37d36173e6747990ceaf8a4', { indent: 2 }, '37e562e1ae3242577407e1303b1548bc64e7ea68e37d36173e6747990ceaf8a4'],
    ['domains/airline/db.json', '1af9fea6e03ca7ca15a22bb3fcaf3e351393e3fc9070b6777947da8996f7531b', { sortKeys: true }, 'a072e1ec3cde3bd0cbd5d1cee687b3ff3869b8d77c642e910c944f37ee2bf50e'],
    ['domains/retail/db.json', '413a65160adbdb5fde0ffc0015c49b6d70250b10c18128de169b597af7766765', { sortKeys: true }, '8c359340612f66ae5cbcb9373877b92076a0fc4a3283c71fd7da5fae2b6b3052'],
  ];
  it.each(CASES)('%s re-dumps like Python (input %s, options %j)', (file, inputSha, opts, outputSha) => {
    const text = readDataFile(file);
    expect(sha256Hex(text)).toBe(inputSha);
    expect(sha256Hex(dumpsPy(parsePyJson(text), opts))).toBe(outputSha);
  });
});
