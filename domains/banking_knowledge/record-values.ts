// Reading values out of DB records and raw arguments as the domain's tools do in Python: `dict.get` with a
// default, list membership, and the balance parsing shared by the account tools (reference: tools.py helpers).
import { PyFloat, dictGet, dictHasKey, isPyFloat, pyEquals, pyToFloat } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import type { DbRecord } from './db_query.ts';

/** `record.get(key, default)`: a stored None stays None; only a missing key gives the default. */
export const fieldOr = (record: DbRecord, key: string, fallback: PyValue): PyValue =>
  dictHasKey(record, key) ? (dictGet(record, key) as PyValue) : fallback;

/** `value in options` for a list of options (Python `==`, so 1 and 1.0 match, a str never matches a number). */
export const isOneOf = (value: PyValue | undefined, options: readonly PyValue[]): boolean =>
  options.some((option) => pyEquals(option, value ?? null));

/** `_parse_balance`: a number as a float, a str like "$2,850.00" through `float()`, anything else 0.0. */
export const parseBalance = (value: PyValue): PyFloat => {
  if (typeof value === 'number' || typeof value === 'boolean' || isPyFloat(value)) return pyToFloat(value);
  if (typeof value === 'string') return pyToFloat(value.replaceAll('$', '').replaceAll(',', ''));
  return new PyFloat(0);
};

/** `_get_account_balance`: `current_holdings`, else `balance`, else 0, parsed. */
export const accountBalance = (account: DbRecord): PyFloat =>
  parseBalance(fieldOr(account, 'current_holdings', fieldOr(account, 'balance', 0)));
