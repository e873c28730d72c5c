// Python operations the bank-account and debit-card tools apply to raw arguments and records, raising what
// CPython raises (a TypeError reaches the model as "Invalid arguments", any other exception as a tool error).
// Hand-written for byte-exact texts: str methods and float() with its except clause (dict membership: ../python-values.ts).
import { PyError, isPyError, pyToFloat, pyTypeName } from '../../../../src/core/py/index.ts';
import type { PyFloat, PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';

type Arg = PyValue | undefined;

/** `value.<method>` on what should be a str: Python's AttributeError otherwise. */
export const asStr = (value: Arg, method: string): string => {
  if (typeof value === 'string') return value;
  throw new PyError('AttributeError', `'${pyTypeName(value)}' object has no attribute '${method}'`);
};

/**
 * Characters `str.isdigit` accepts beyond the decimal digits (Numeric_Type=Digit: superscripts, circled
 * digits, …), as ranges of code points.
 */
const DIGIT_RANGES: readonly (readonly [number, number])[] = [
  [0xb2, 0xb3], [0xb9, 0xb9], [0x1369, 0x1371], [0x19da, 0x19da], [0x2070, 0x2070], [0x2074, 0x2079],
  [0x2080, 0x2089], [0x2460, 0x2468], [0x2474, 0x247c], [0x2488, 0x2490], [0x24ea, 0x24ea], [0x24f5, 0x24fd],
  [0x24ff, 0x24ff], [0x2776, 0x277e], [0x2780, 0x2788], [0x278a, 0x2792], [0x10a40, 0x10a43], [0x10e60, 0x10e68],
  [0x11052, 0x1105a], [0x1f100, 0x1f10a],
];

const isDigitChar = (ch: string): boolean => {
  if (/^\p{Nd}$/u.test(ch)) return true;
  const cp = ch.codePointAt(0)!;
  return DIGIT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
};

/** `not s.isdigit() or len(s) != n` for a str argument (AttributeError for anything else); `len` counts code points. */
export const notDigits = (value: Arg, n: number): boolean => {
  const s = asStr(value, 'isdigit');
  const chars = [...s];
  return chars.length === 0 || !chars.every(isDigitChar) || chars.length !== n;
};

/** `all([...])`. */
export const allTruthy = (values: readonly Arg[]): boolean => values.every((v) => truthy(v));

/** `float(value)` inside `try … except (ValueError, TypeError)`: null where the except clause would run. */
export const floatOrNull = (value: Arg): PyFloat | null => {
  try {
    return pyToFloat(value);
  } catch (error) {
    if (isPyError(error, 'ValueError') || isPyError(error, 'TypeError')) return null;
    throw error;
  }
};
