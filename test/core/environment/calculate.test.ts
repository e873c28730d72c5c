// `calculate`: Python eval arithmetic, round(float(x), 2) and str(float), with CPython 3.12's exception texts.
// Every expected value below was produced by the reference's calculate body run on CPython 3.12.1.
import { describe, expect, it } from 'vitest';
import { calculate, calculateExpression } from '../../../src/core/environment/calculate.ts';
import { toJsonStr } from '../../../src/core/environment/serialize.ts';
import { ToolError } from '../../../src/core/environment/errors.ts';
import { PyFloat, parsePyJson } from '../../../src/core/py/index.ts';

const outcome = (expression: string): [string, string] => {
  try {
    return ['ok', calculateExpression(expression)];
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    return ['err', (e as Error).message];
  }
};

/** [expression, 'ok' | 'err', result string or str(exception)] */
const CASES: readonly [string, 'ok' | 'err', string][] = [
  ["", "err", "invalid syntax (<string>, line 0)"],
  [" ", "err", "invalid syntax (<string>, line 0)"],
  ["1 2", "err", "invalid syntax (<string>, line 1)"],
  ["01", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["(", "err", "'(' was never closed (<string>, line 1)"],
  [")", "err", "unmatched ')' (<string>, line 1)"],
  ["1+", "err", "invalid syntax (<string>, line 1)"],
  ["()", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["...", "err", "float() argument must be a string or a real number, not 'ellipsis'"],
  ["1..2", "err", "invalid syntax (<string>, line 1)"],
  ["1..", "err", "invalid syntax (<string>, line 1)"],
  ["1. .2", "err", "invalid syntax (<string>, line 1)"],
  ["()()", "err", "'tuple' object is not callable"],
  ["1()", "err", "'int' object is not callable"],
  ["(1)(2)", "err", "'int' object is not callable"],
  ["--1", "ok", "1.0"],
  ["1//0", "err", "integer division or modulo by zero"],
  ["1.0//0", "err", "float floor division by zero"],
  ["1%2", "err", "Invalid characters in expression"],
  ["10**400", "err", "int too large to convert to float"],
  ["10.0**400", "err", "(34, 'Numerical result out of range')"],
  ["(-8)**0.5", "err", "float() argument must be a string or a real number, not 'complex'"],
  ["2**-1", "ok", "0.5"],
  ["0**-1", "err", "0.0 cannot be raised to a negative power"],
  ["1/0.0", "err", "float division by zero"],
  ["0.0/0", "err", "float division by zero"],
  ["1 + * 2", "err", "invalid syntax (<string>, line 1)"],
  ["*1", "err", "invalid syntax (<string>, line 1)"],
  ["/1", "err", "invalid syntax (<string>, line 1)"],
  ["1**", "err", "invalid syntax (<string>, line 1)"],
  [" 1", "ok", "1.0"],
  ["(1", "err", "'(' was never closed (<string>, line 1)"],
  ["1)", "err", "unmatched ')' (<string>, line 1)"],
  ["1 )", "err", "unmatched ')' (<string>, line 1)"],
  ["((", "err", "'(' was never closed (<string>, line 1)"],
  ["1 1 1", "err", "invalid syntax (<string>, line 1)"],
  [". 1", "err", "invalid syntax (<string>, line 1)"],
  [".", "err", "invalid syntax (<string>, line 1)"],
  ["1.2.3", "err", "invalid syntax (<string>, line 1)"],
  ["00", "ok", "0.0"],
  ["0001", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["2**10000", "err", "int too large to convert to float"],
  ["100000000000000000000000*1.0", "ok", "1e+23"],
  ["10**400/10**399", "ok", "10.0"],
  ["()*2", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["2*()", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["()*2.0", "err", "can't multiply sequence by non-int of type 'float'"],
  ["-()", "err", "bad operand type for unary -: 'tuple'"],
  ["()+()", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["()+1", "err", "can only concatenate tuple (not \"int\") to tuple"],
  ["1+()", "err", "unsupported operand type(s) for +: 'int' and 'tuple'"],
  ["...+1", "err", "unsupported operand type(s) for +: 'ellipsis' and 'int'"],
  ["()/1", "err", "unsupported operand type(s) for /: 'tuple' and 'int'"],
  ["1/()", "err", "unsupported operand type(s) for /: 'int' and 'tuple'"],
  ["(-8)**0.5+1", "err", "float() argument must be a string or a real number, not 'complex'"],
  ["1/((-1)**0.5-(-1)**0.5)", "err", "complex division by zero"],
  ["(-1)**0.5//1", "err", "unsupported operand type(s) for //: 'complex' and 'int'"],
  ["1 .2", "err", "invalid syntax (<string>, line 1)"],
  ["1.5.", "err", "invalid syntax (<string>, line 1)"],
  ["1..real", "err", "Invalid characters in expression"],
  ["(*1)", "err", "cannot use starred expression here (<string>, line 1)"],
  ["**1", "err", "invalid syntax (<string>, line 1)"],
  ["1***2", "err", "invalid syntax (<string>, line 1)"],
  ["1////2", "err", "invalid syntax (<string>, line 1)"],
  ["()**2", "err", "unsupported operand type(s) for ** or pow(): 'tuple' and 'int'"],
  ["(())", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["(1)", "ok", "1.0"],
  ["( )", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["1 /", "err", "invalid syntax (<string>, line 1)"],
  ["1 / / 2", "err", "invalid syntax (<string>, line 1)"],
  ["2 ** ** 2", "err", "invalid syntax (<string>, line 1)"],
  ["((1)", "err", "'(' was never closed (<string>, line 1)"],
  ["(1))", "err", "unmatched ')' (<string>, line 1)"],
  ["1 * (2", "err", "'(' was never closed (<string>, line 1)"],
  ["1.0e", "err", "Invalid characters in expression"],
  ["0.1+0.2", "ok", "0.3"],
  ["2.675*1", "ok", "2.67"],
  ["1e", "err", "Invalid characters in expression"],
  ["--", "err", "invalid syntax (<string>, line 1)"],
  ["-", "err", "invalid syntax (<string>, line 1)"],
  ["+", "err", "invalid syntax (<string>, line 1)"],
  ["1-", "err", "invalid syntax (<string>, line 1)"],
  ["1-+-2", "ok", "3.0"],
  ["0..0", "err", "invalid syntax (<string>, line 1)"],
  ["0.", "ok", "0.0"],
  [".0", "ok", "0.0"],
  ["00.5", "ok", "0.5"],
  ["007.5", "ok", "7.5"],
  ["0 1", "err", "invalid syntax (<string>, line 1)"],
  ["10/3", "ok", "3.33"],
  ["3*1.1", "ok", "3.3"],
  ["0.00001", "ok", "0.0"],
  ["100000000000000000", "ok", "1e+17"],
  ["2 + 2", "ok", "4.0"],
  ["1/0", "err", "division by zero"],
  ["2**3", "ok", "8.0"],
  ["abc", "err", "Invalid characters in expression"],
  ["-0.001", "ok", "-0.0"],
  ["-0.0", "ok", "-0.0"],
  ["0*-1.0", "ok", "-0.0"],
  ["10.0**308*10", "ok", "inf"],
  ["10.0**308*10-10.0**308*10", "ok", "nan"],
  ["9007199254740993", "ok", "9007199254740992.0"],
  ["9007199254740993*1", "ok", "9007199254740992.0"],
  ["2**1024/1", "err", "integer division result too large for a float"],
  ["2**1023*2.0", "ok", "inf"],
  ["-2**2", "ok", "-4.0"],
  ["(-2)**2", "ok", "4.0"],
  ["2**3**2", "ok", "512.0"],
  ["1-2-3", "ok", "-4.0"],
  ["8/2/2", "ok", "2.0"],
  ["7//-2", "ok", "-4.0"],
  ["-7//2", "ok", "-4.0"],
  ["7.5//-2", "ok", "-4.0"],
  ["-7.5//2", "ok", "-4.0"],
  ["1.0//0.0", "err", "float floor division by zero"],
  ["0//0", "err", "integer division or modulo by zero"],
  ["0.0//0.0", "err", "float floor division by zero"],
  ["5//0.0", "err", "float floor division by zero"],
  ["1//()", "err", "unsupported operand type(s) for //: 'int' and 'tuple'"],
  ["(1 2", "err", "'(' was never closed (<string>, line 1)"],
  ["(1 2)", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["(1) 2", "err", "invalid syntax (<string>, line 1)"],
  ["1 (2 3)", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["((1 2))", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["(*1 2)", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["(**1)", "err", "cannot use double starred expression here (<string>, line 1)"],
  ["(*1", "err", "'(' was never closed (<string>, line 1)"],
  ["1(*2)", "err", "1 argument after * must be an iterable, not int"],
  ["1(**2)", "err", "1 argument after ** must be a mapping, not int"],
  ["1(*())", "err", "'int' object is not callable"],
  ["()(**())", "err", "() argument after ** must be a mapping, not tuple"],
  ["1(*2 3)", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["1(**2 3)", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["(1 2)+)", "err", "unmatched ')' (<string>, line 1)"],
  ["1 2 )", "err", "unmatched ')' (<string>, line 1)"],
  ["1 2 01", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["1 + 01", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["01 + (", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["(01", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["1 * ) 01", "err", "unmatched ')' (<string>, line 1)"],
  ["(1 2 01", "err", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"],
  ["(1 2 )", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["(1 2 ))", "err", "unmatched ')' (<string>, line 1)"],
  ["()*10**30", "err", "cannot fit 'int' into an index-sized integer"],
  ["()*-1", "err", "float() argument must be a string or a real number, not 'tuple'"],
  ["0/-1", "ok", "-0.0"],
  ["-0//1", "ok", "0.0"],
  ["0.0//-1", "ok", "-0.0"],
  ["(-8)**(1/3)", "err", "float() argument must be a string or a real number, not 'complex'"],
  ["0**0", "ok", "1.0"],
  ["0.0**0", "ok", "1.0"],
  ["1(1)(2)", "err", "'int' object is not callable"],
  ["(1)(*1)", "err", "1 argument after * must be an iterable, not int"],
  ["()(*1)", "err", "() argument after * must be an iterable, not int"],
  ["...(1)", "err", "'ellipsis' object is not callable"],
  ["(1).5", "err", "invalid syntax (<string>, line 1)"],
  ["((1).5)", "err", "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
  ["(1).", "err", "invalid syntax (<string>, line 1)"],
  ["1...", "err", "invalid syntax (<string>, line 1)"],
  ["1 ...", "err", "invalid syntax (<string>, line 1)"],
  ["... ...", "err", "invalid syntax (<string>, line 1)"],
  ["(...)(...)", "err", "'ellipsis' object is not callable"],
  ["1 (", "err", "'(' was never closed (<string>, line 1)"],
  ["(1 (", "err", "'(' was never closed (<string>, line 1)"],
  ["1 * (", "err", "'(' was never closed (<string>, line 1)"],
  ["(* 1)", "err", "cannot use starred expression here (<string>, line 1)"],
  ["(*)", "err", "invalid syntax (<string>, line 1)"],
  ["(**)", "err", "invalid syntax (<string>, line 1)"],
  ["1(*)", "err", "invalid syntax (<string>, line 1)"],
  ["1(**)", "err", "invalid syntax (<string>, line 1)"],
  ["1(*1, )", "err", "Invalid characters in expression"],
];

describe('calculate', () => {
  it.each(CASES)('%j → %s %s', (expression, kind, text) => {
    expect(outcome(expression)).toEqual([kind, text]);
  });

  it('refuses nesting deeper than CPython accepts', () => {
    expect(outcome(`${'('.repeat(250)}1`)).toEqual(['err', 'too many nested parentheses (<string>, line 1)']);
    expect(outcome(`${'('.repeat(199)}1${')'.repeat(199)}`)).toEqual(['ok', '1.0']);
    expect(outcome(Array(5000).fill('1').join('+'))).toEqual([
      'err',
      'maximum recursion depth exceeded during compilation',
    ]);
    expect(outcome(`${'-'.repeat(1000)}1`)).toEqual(['ok', '1.0']);
  });

  it('is a GENERIC tool whose result is the bare string; non-string arguments fail as in Python', () => {
    expect(calculate.type).toBe('generic');
    expect(toJsonStr(calculate.run(null, { expression: '10/3' }))).toBe('3.33');
    expect(() => calculate.run(null, { expression: 5 })).toThrow("'int' object is not iterable");
    expect(() => calculate.run(null, { expression: new PyFloat(5) })).toThrow("'float' object is not iterable");
    expect(() => calculate.run(null, { expression: null })).toThrow("'NoneType' object is not iterable");
    expect(() => calculate.run(null, { expression: ['1', '+'] })).toThrow(
      'eval() arg 1 must be a string, bytes or code object',
    );
    expect(() => calculate.run(null, { expression: ['a'] })).toThrow('Invalid characters in expression');
    // A dict iterates over its keys, index-like ones (a Map here) included: `"1" in allowed`, then eval refuses it.
    expect(() => calculate.run(null, { expression: parsePyJson('{"1": 2}') })).toThrow(
      'eval() arg 1 must be a string, bytes or code object',
    );
    expect(() => calculate.run(null, { expression: [1] })).toThrow(
      "'in <string>' requires string as left operand, not int",
    );
  });
});
