// Python conversions and formatting the tools apply to raw values: `float(x)`, `f"{x:.2f}"`, `str.title()`.
import { PyError } from './errors.ts';
import { PyFloat, isPyFloat, pyTypeName } from './float.ts';
import { formatFixed } from './float-format.ts';
import { strRepr } from './repr.ts';
import type { PyValue } from './value.ts';

/** The text CPython's `float(str)` accepts: optional sign, digits with single underscores, exponent, inf/nan. */
const FLOAT_TEXT =
  /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

/** Python `float(value)` for a str, int, bool or float; other types raise CPython's TypeError. */
export const pyToFloat = (value: PyValue | undefined): PyFloat => {
  if (isPyFloat(value)) return value;
  if (typeof value === 'number' || typeof value === 'boolean') return new PyFloat(Number(value));
  if (typeof value === 'string') {
    const text = value.trim();
    if (!FLOAT_TEXT.test(text)) throw new PyError('ValueError', `could not convert string to float: ${strRepr(value)}`);
    const plain = text.replaceAll('_', '').toLowerCase();
    const sign = plain.startsWith('-') ? -1 : 1;
    const body = plain.replace(/^[+-]/, '');
    if (body.startsWith('inf')) return new PyFloat(sign * Infinity);
    if (body === 'nan') return new PyFloat(NaN);
    return new PyFloat(Number(plain));
  }
  throw new PyError('TypeError', `float() argument must be a string or a real number, not '${pyTypeName(value)}'`);
};

/** Python `f"{value:.{digits}f}"`: ints and bools format as their float; a str or a container refuses. */
export const pyFormatFixed = (value: PyValue | undefined, digits: number): string => {
  if (isPyFloat(value) || typeof value === 'number' || typeof value === 'boolean') {
    return formatFixed(isPyFloat(value) ? value : Number(value), digits);
  }
  if (typeof value === 'string') throw new PyError('ValueError', "Unknown format code 'f' for object of type 'str'");
  throw new PyError('TypeError', `unsupported format string passed to ${pyTypeName(value)}.__format__`);
};

/** Python `str.title()`: a cased letter is upper-cased after an uncased character, lower-cased after a cased one. */
export const pyTitle = (text: string): string => {
  let previousCased = false;
  let out = '';
  for (const ch of text) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (previousCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    previousCased = cased;
  }
  return out;
};
