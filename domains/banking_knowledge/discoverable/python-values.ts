// Python operations the discoverable tools apply to raw arguments, raising what CPython raises (as PyError, so
// that a TypeError reaches call_discoverable_agent_tool as "Invalid arguments"): table membership, `x <= 0`,
// `int(x)`, `f"{n:,}"`, `.upper()`, the titled codes of messages and the "$1,234.56" parsing of stored amounts.
import {
  PyError,
  PyFloat,
  dictHasKey,
  intRepr,
  isPyDict,
  isPyFloat,
  pyStr,
  pyTitle,
  pyToFloat,
  pyTypeName,
  strRepr,
} from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { TableName, TransactionalDB } from '../data_model.ts';

/** `key in db.<table>.data`: only a str can be present; a list or dict raises Python's TypeError. */
export const inTable = (db: TransactionalDB, table: TableName, key: PyValue | undefined): key is string => {
  if (Array.isArray(key) || isPyDict(key)) throw new PyError('TypeError', `unhashable type: '${pyTypeName(key)}'`);
  return typeof key === 'string' && dictHasKey(db[table].data, key);
};

const isNumber = (value: PyValue | undefined): value is number | boolean | PyFloat =>
  typeof value === 'number' || typeof value === 'boolean' || isPyFloat(value);

/** `value <= 0` for a raw argument: a value that is not a number cannot be ordered against an int. */
export const isAtMostZero = (value: PyValue | undefined): boolean => {
  if (!isNumber(value)) {
    throw new PyError('TypeError', `'<=' not supported between instances of '${pyTypeName(value)}' and 'int'`);
  }
  return Number(isPyFloat(value) ? value.value : value) <= 0;
};

const INT_TEXT = /^[+-]?\d(?:_?\d)*$/;

/** Python `int(value)` (base 10 for a str), exact at any size. */
export const pyInt = (value: PyValue | undefined): bigint => {
  if (typeof value === 'boolean') return BigInt(value);
  if (typeof value === 'number' || isPyFloat(value)) {
    const n = isPyFloat(value) ? value.value : value;
    if (Number.isNaN(n)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(n)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
    return BigInt(Math.trunc(n));
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (!INT_TEXT.test(text)) throw new PyError('ValueError', `invalid literal for int() with base 10: ${strRepr(value)}`);
    return BigInt(text.replaceAll('_', ''));
  }
  throw new PyError(
    'TypeError',
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`,
  );
};

/** `f"{n:,}"` for an int: digits grouped by threes with commas. */
export const groupThousands = (n: number | bigint): string => {
  const digits = intRepr(n);
  const sign = digits.startsWith('-') ? '-' : '';
  return sign + digits.slice(sign.length).replace(/\B(?=(\d{3})+$)/g, ',');
};

/**
 * `try: result = convert() except (ValueError, TypeError): ...`: the converted value, or null where Python
 * raises one of those (the tools answer them with their own message).
 */
export const convertedOrNull = <T>(convert: () => T): T | null => {
  try {
    return convert();
  } catch (error) {
    if (error instanceof PyError && (error.pyType === 'ValueError' || error.pyType === 'TypeError')) return null;
    throw error;
  }
};

/** `float(str(value).replace("$", "").replace(",", ""))`, 0.0 where that raises ValueError or TypeError. */
export const dollarsOrZero = (value: PyValue): PyFloat =>
  convertedOrNull(() => pyToFloat(pyStr(value).replaceAll('$', '').replaceAll(',', ''))) ?? new PyFloat(0);

/** `value.upper()`: only a str has it. */
export const pyUpper = (value: PyValue): string => {
  if (typeof value !== 'string') {
    throw new PyError('AttributeError', `'${pyTypeName(value)}' object has no attribute 'upper'`);
  }
  return value.toUpperCase();
};

/** `code.replace("_", " ").title()` for a code already checked against a list of str: "duplicate_charge" → "Duplicate Charge". */
export const titledCode = (code: PyValue | undefined): string => pyTitle(pyStr(code ?? null).replaceAll('_', ' '));
