// Python float formatting on exact binary values: repr(float), round(float, n) digits and f"{x:.Nf}".
import { PyError } from './errors.ts';
import type { PyFloat } from './float.ts';

/** The exact value of a finite, non-zero |x| as mant × 2^exp (mant < 2^53). */
export const decompose = (x: number): { mant: bigint; exp: number } => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { mant: fraction, exp: -1074 };
  return { mant: fraction | (1n << 52n), exp: biased - 1075 };
};

/** round(|x| × 10^ndigits) to an integer, ties to even, computed on the exact binary value of x. */
export const scaledRoundHalfEven = (x: number, ndigits: number): bigint => {
  const abs = Math.abs(x);
  if (abs === 0) return 0n;
  const { mant, exp } = decompose(abs);
  let num = exp >= 0 ? mant << BigInt(exp) : mant;
  let den = exp >= 0 ? 1n : 1n << BigInt(-exp);
  if (ndigits >= 0) num *= 10n ** BigInt(ndigits);
  else den *= 10n ** BigInt(-ndigits);
  const q = num / den;
  const twiceRem = 2n * (num - q * den);
  return twiceRem > den || (twiceRem === den && (q & 1n) === 1n) ? q + 1n : q;
};

/** Shortest round-trip digits of a finite non-zero |x|: x = 0.DIGITS × 10^decpt. */
const shortestDigits = (x: number): { digits: string; decpt: number } => {
  const [mantissa = '', exponent = '0'] = String(Math.abs(x)).split('e');
  const dot = mantissa.indexOf('.');
  const intPart = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const fracPart = dot < 0 ? '' : mantissa.slice(dot + 1);
  let digits = intPart + fracPart;
  let decpt = intPart.length + Number(exponent);
  let start = 0;
  while (digits.charCodeAt(start) === 48) start++;
  decpt -= start;
  digits = digits.slice(start).replace(/0+$/, '');
  return { digits, decpt };
};

/** Python `repr(float)` (also `str(float)` and the JSON text of a finite float). */
export const floatRepr = (x: number): string => {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const { digits, decpt } = shortestDigits(x);
  if (decpt <= -4 || decpt > 16) {
    const exp = decpt - 1;
    const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${lead}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
};

/**
 * The double nearest to x rounded to `ndigits` decimals (CPython `round(float, ndigits)` on a JS number):
 * exact value, ties to even, sign kept for zero results; nan/inf unchanged; OverflowError like CPython.
 */
export const roundFloatNumber = (x: number, ndigits: number): number => {
  if (!Number.isInteger(ndigits)) throw new PyError('TypeError', "'float' object cannot be interpreted as an integer");
  if (!Number.isFinite(x) || x === 0) return x;
  if (ndigits > 323) return x;
  if (ndigits < -308) return x < 0 ? -0 : 0;
  const q = scaledRoundHalfEven(x, ndigits);
  const magnitude = ndigits >= 0 ? Number(`${q}e-${ndigits}`) : Number(q * 10n ** BigInt(-ndigits));
  if (!Number.isFinite(magnitude)) throw new PyError('OverflowError', 'rounded value too large to represent');
  return x < 0 ? -magnitude : magnitude;
};

/** Python `f"{x:.{digits}f}"`: fixed notation, correctly rounded, exact ties to even, no exponent form. */
export const formatFixed = (x: number | PyFloat, digits: number): string => {
  const v = typeof x === 'number' ? x : x.value;
  if (!Number.isInteger(digits) || digits < 0) throw new RangeError(`invalid precision ${digits}`);
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const text = scaledRoundHalfEven(v, digits).toString();
  if (digits === 0) return sign + text;
  const padded = text.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
};
