// Correctly rounded x ** y on doubles, matching glibc's pow (which CPython uses) rather than V8's Math.pow.
import { decompose } from './float-format.ts';

/** Fixed-point precision, in bits, of the logarithm and exponential used for non-integer exponents. */
const P = 256n;
const ONE = 1n << P;

const bitLength = (n: bigint): number => {
  if (n === 0n) return 0;
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0] as string, 16)));
};

/** 2^n for -1022 ≤ n ≤ 1023, built from its bits. */
const pow2 = (n: number): number => {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, (n + 1023) << 20);
  return view.getFloat64(0);
};

/** q × 2^e for an integer q ≤ 2^53 already rounded to the granularity of the result. */
const ldexp = (q: number, e: number): number => {
  let r = q;
  let n = e;
  while (n > 1023 && Number.isFinite(r)) {
    r *= pow2(1023);
    n -= 1023;
  }
  while (n < -1022) {
    r *= pow2(-1022);
    n += 1022;
  }
  return Number.isFinite(r) ? r * pow2(n) : r;
};

/** The double nearest to num / den × 2^exp2 (num ≥ 0, den > 0), ties to even, with subnormals and overflow. */
export const ratioToDouble = (num: bigint, den: bigint, exp2 = 0): number => {
  if (num === 0n) return 0;
  let e = Math.max(bitLength(num) - bitLength(den) + exp2 - 53, -1074);
  for (;;) {
    const shift = exp2 - e;
    const n = shift >= 0 ? num << BigInt(shift) : num;
    const d = shift >= 0 ? den : den << BigInt(-shift);
    const q = n / d;
    if (q >= 1n << 53n) {
      e += 1;
      continue;
    }
    const twiceRem = 2n * (n - q * d);
    const rounded = twiceRem > d || (twiceRem === d && (q & 1n) === 1n) ? q + 1n : q;
    return ldexp(Number(rounded), e);
  }
};

/** Integer powers are computed exactly while the exact result stays this small (in bits). */
const MAX_EXACT_BITS = 60000;

const exactIntegerPow = (x: number, n: number): number => {
  const { mant, exp } = decompose(x);
  const power = mant ** BigInt(Math.abs(n));
  return n > 0 ? ratioToDouble(power, 1n, exp * n) : ratioToDouble(1n, power, exp * n);
};

/** atanh(z) in fixed point, |z| ≤ 1/3. */
const atanhFixed = (z: bigint): bigint => {
  const z2 = (z * z) >> P;
  let term = z;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * z2) >> P;
  }
  return sum;
};

let ln2Cache: bigint | undefined;
const ln2 = (): bigint => (ln2Cache ??= 2n * atanhFixed(ONE / 3n));

/** ln(x) in fixed point for a finite x > 0. */
const lnFixed = (x: number): bigint => {
  const { mant, exp } = decompose(x);
  const top = bitLength(mant) - 1;
  const base = 1n << BigInt(top);
  const lnMantissa = 2n * atanhFixed(((mant - base) << P) / (mant + base));
  return lnMantissa + BigInt(exp + top) * ln2();
};

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
};

/** exp(t) for a fixed-point t, as num / 2^P × 2^k. */
const expFixed = (t: bigint): [bigint, number] => {
  const k = floorDiv(2n * t + ln2(), 2n * ln2());
  const r = t - k * ln2();
  let sum = ONE;
  let term = ONE;
  for (let n = 1n; term !== 0n; n++) {
    term = ((term * r) >> P) / n;
    sum += term;
  }
  return [sum, Number(k)];
};

/**
 * x ** y for finite x > 0, x ≠ 1, finite y ≠ 0, correctly rounded: exact for integer y, 256-bit log/exp
 * otherwise (only a result within 2^-190 of a rounding midpoint could differ). Infinity means overflow.
 */
export const powPositive = (x: number, y: number): number => {
  const estimate = y * Math.log(x);
  if (estimate > 710) return Infinity;
  if (estimate < -746) return 0;
  if (Number.isInteger(y) && Math.abs(y) * 53 <= MAX_EXACT_BITS) return exactIntegerPow(x, y);
  const { mant, exp } = decompose(Math.abs(y));
  const scaled = lnFixed(x) * mant;
  const t = exp >= 0 ? scaled << BigInt(exp) : scaled >> BigInt(-exp);
  const [num, k] = expFixed(y < 0 ? -t : t);
  return ratioToDouble(num, ONE, k);
};
