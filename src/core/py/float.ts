// Python int/float kinds on JS numbers: PyFloat boxes floats; arithmetic follows CPython's kind and error rules.
import { PyError } from './errors.ts';
import { floatRepr, roundFloatNumber, scaledRoundHalfEven } from './float-format.ts';
import { powPositive } from './float-pow.ts';
import { isPyDict, jsTypeName } from './value.ts';

/** A Python `float`. Every value that comes from a float source is boxed, whatever its value (`2.0` too). */
export class PyFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
    // Immutable in fact, not only in type: a frozen DB holding it is then deep-frozen (see json.ts rememberFrozen).
    Object.freeze(this);
  }
  valueOf(): number {
    return this.value;
  }
  /** Python `repr(float)`. */
  toString(): string {
    return floatRepr(this.value);
  }
}

/** A Python number: int (integral JS number), bool (int subclass) or float (PyFloat, or a non-integral JS number). */
export type PyNumber = number | boolean | PyFloat;

export const isPyFloat = (v: unknown): v is PyFloat => v instanceof PyFloat;

/** Python `type(v).__name__` for a value of the domain (`int`, `float`, `bool`, `str`, `NoneType`, `list`, `dict`). */
export const pyTypeName = (v: unknown): string => {
  if (v === null || v === undefined) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyFloat) return 'float';
  switch (typeof v) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    default:
      return isPyDict(v) ? 'dict' : jsTypeName(v);
  }
};

/** Python `float(n)`. */
export const pyFloat = (n: PyNumber): PyFloat => (n instanceof PyFloat ? n : new PyFloat(Number(n)));

/** A float by kind: a PyFloat, or (tolerated) a primitive non-integral number, nan or ±inf. */
export const isFloatValue = (v: unknown): v is PyFloat | number =>
  v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v));

/** An int by kind: an integral primitive number (booleans are not included). */
export const isIntValue = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export const toNumber = (v: PyNumber): number => (v instanceof PyFloat ? v.value : Number(v));

const isNumber = (v: unknown): v is PyNumber => typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat;

const operands = (op: string, a: unknown, b: unknown): [number, number, boolean] => {
  if (!isNumber(a) || !isNumber(b)) {
    throw new PyError('TypeError', `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
  }
  return [toNumber(a), toNumber(b), isFloatValue(a) || isFloatValue(b)];
};

/** An int result never carries JS's -0. */
const int = (n: number): number => (n === 0 ? 0 : n);

export const add = (a: PyNumber, b: PyNumber): number | PyFloat => {
  const [x, y, float] = operands('+', a, b);
  return float ? new PyFloat(x + y) : int(x + y);
};

export const sub = (a: PyNumber, b: PyNumber): number | PyFloat => {
  const [x, y, float] = operands('-', a, b);
  return float ? new PyFloat(x - y) : int(x - y);
};

export const mul = (a: PyNumber, b: PyNumber): number | PyFloat => {
  const [x, y, float] = operands('*', a, b);
  return float ? new PyFloat(x * y) : int(x * y);
};

/** `a / b`: always a float; `division by zero` (int operands) or `float division by zero`. */
export const truediv = (a: PyNumber, b: PyNumber): PyFloat => {
  const [x, y, float] = operands('/', a, b);
  if (y === 0) throw new PyError('ZeroDivisionError', float ? 'float division by zero' : 'division by zero');
  return new PyFloat(x / y);
};

/** CPython's float floor division and modulo pair (fmod based, sign of the divisor). */
const floatDivMod = (x: number, y: number): [number, number] => {
  let mod = x % y;
  let div = (x - mod) / y;
  if (mod !== 0) {
    if (y < 0 !== mod < 0) {
      mod += y;
      div -= 1;
    }
  } else {
    mod = y < 0 ? -0 : 0;
  }
  let floorDiv: number;
  if (div !== 0) {
    floorDiv = Math.floor(div);
    if (div - floorDiv > 0.5) floorDiv += 1;
  } else {
    floorDiv = x / y < 0 || Object.is(x / y, -0) ? -0 : 0;
  }
  return [floorDiv, mod];
};

/** `a // b`: floor division (int for ints, float otherwise). */
export const floordiv = (a: PyNumber, b: PyNumber): number | PyFloat => {
  const [x, y, float] = operands('//', a, b);
  if (y === 0) {
    throw new PyError('ZeroDivisionError', float ? 'float floor division by zero' : 'integer division or modulo by zero');
  }
  if (float) return new PyFloat(floatDivMod(x, y)[0]);
  const r = x % y;
  const q = (x - r) / y;
  return int(r !== 0 && r < 0 !== y < 0 ? q - 1 : q);
};

/** `a % b`: the result takes the sign of the divisor. */
export const mod = (a: PyNumber, b: PyNumber): number | PyFloat => {
  const [x, y, float] = operands('%', a, b);
  if (y === 0) throw new PyError('ZeroDivisionError', float ? 'float modulo' : 'integer modulo by zero');
  if (float) return new PyFloat(floatDivMod(x, y)[1]);
  const r = x % y;
  return int(r !== 0 && r < 0 !== y < 0 ? r + y : r);
};

const isOddInteger = (n: number): boolean => Number.isInteger(n) && Math.abs(n % 2) === 1;

/** CPython `float.__pow__` special cases, then a correctly rounded pow (as glibc's, not V8's Math.pow). */
const floatPow = (x: number, y: number): number => {
  if (y === 0) return 1;
  if (Number.isNaN(x)) return x;
  if (Number.isNaN(y)) return x === 1 ? 1 : y;
  if (!Number.isFinite(y)) {
    const ax = Math.abs(x);
    if (ax === 1) return 1;
    return y > 0 === ax > 1 ? Infinity : 0;
  }
  if (!Number.isFinite(x)) {
    const odd = isOddInteger(y);
    if (y > 0) return odd ? x : Math.abs(x);
    return odd ? (x < 0 ? -0 : 0) : 0;
  }
  if (x === 0) {
    if (y < 0) throw new PyError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return isOddInteger(y) ? x : 0;
  }
  let base = x;
  let negate = false;
  if (base < 0) {
    if (!Number.isInteger(y)) throw new PyError('ComplexResultError', 'negative number raised to a fractional power (complex result)');
    base = -base;
    negate = isOddInteger(y);
  }
  if (base === 1) return negate ? -1 : 1;
  const result = powPositive(base, y);
  if (!Number.isFinite(result)) throw new PyError('OverflowError', "(34, 'Numerical result out of range')");
  return negate ? -result : result;
};

/** Exponents whose int result would not fit a double are refused rather than silently becoming inf. */
const MAX_INT_POW_BITS = 1100;

/** `a ** b`: int for int operands with a non-negative exponent, float otherwise. */
export const pow = (a: PyNumber, b: PyNumber): number | PyFloat => {
  const [x, y, float] = operands('**', a, b);
  if (float || y < 0) return new PyFloat(floatPow(x, y));
  if (Math.abs(x) > 1 && y * Math.log2(Math.abs(x)) > MAX_INT_POW_BITS) {
    throw new PyError('OverflowError', 'int too large to convert to float');
  }
  return int(Number(BigInt(x) ** BigInt(y)));
};

/** `-a`. */
export const neg = (a: PyNumber): number | PyFloat => {
  if (!isNumber(a)) throw new PyError('TypeError', `bad operand type for unary -: '${pyTypeName(a)}'`);
  return isFloatValue(a) ? new PyFloat(-toNumber(a)) : int(-toNumber(a));
};

/** CPython `round(float, ndigits)`: the float is rounded on its exact binary value, ties to even. */
export const pyRound = (x: PyNumber, ndigits: number): PyFloat => new PyFloat(roundFloatNumber(toNumber(x), ndigits));

/** `int.__round__(ndigits)` for a negative ndigits: exact, ties to even. */
const roundIntNegative = (n: number, ndigits: number): number => {
  const unit = 10n ** BigInt(-ndigits);
  const big = BigInt(n);
  const abs = big < 0n ? -big : big;
  let q = abs / unit;
  const twiceRem = 2n * (abs - q * unit);
  if (twiceRem > unit || (twiceRem === unit && (q & 1n) === 1n)) q += 1n;
  return int(Number(big < 0n ? -q * unit : q * unit));
};

/**
 * The builtin `round(x, ndigits=None)` with Python's result kinds: an int for `round(x)` and for int x;
 * a float for a float x with ndigits.
 */
export const pyRoundBuiltin = (x: PyNumber, ndigits: number | null = null): number | PyFloat => {
  const v = toNumber(x);
  if (isFloatValue(x)) {
    if (ndigits !== null) return pyRound(x, ndigits);
    if (Number.isNaN(v)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
    const q = Number(scaledRoundHalfEven(v, 0));
    return int(v < 0 ? -q : q);
  }
  if (ndigits === null || ndigits >= 0) return v;
  return roundIntNegative(v, ndigits);
};
