// The TOML reader against Python 3.11's tomllib (expected values were produced by tomllib.loads + json.dumps).
import { describe, expect, it } from 'vitest';
import { TomlDecodeError, dumpsPy, parseToml } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { readDataFile } from './data-files.ts';

const asPythonJson = (text: string): string => dumpsPy(parseToml(text));

describe('parseToml', () => {
  it('scalars keep Python kinds: int, float (PyFloat), str with escapes, literal str, bool, mixed arrays', () => {
    const doc = 'a = 1\nb = 2.0\nc = -0.5e3\nd = "x\\ty\\u00e9"\ne = \'lit\\n\'\nf = true\ng = [1, 2.5, "s"]\n';
    expect(asPythonJson(doc)).toBe(
      '{"a": 1, "b": 2.0, "c": -500.0, "d": "x\\ty\\u00e9", "e": "lit\\\\n", "f": true, "g": [1, 2.5, "s"]}',
    );
  });

  it('tables, sub-tables and arrays of tables nest under the last element, in key order', () => {
    const doc = '# c\n[t]\nz = 1\na = 2 # trailing\n[t.sub]\nk = "v"\n[[arr]]\nx = 1\n[[arr.inner]]\ny = 2\n[[arr]]\nx = 3\n[arr.tbl]\nq = 4\n';
    expect(asPythonJson(doc)).toBe(
      '{"t": {"z": 1, "a": 2, "sub": {"k": "v"}}, "arr": [{"x": 1, "inner": [{"y": 2}]}, {"x": 3, "tbl": {"q": 4}}]}',
    );
  });

  it('dotted keys, multi-line arrays with comments, inline tables, underscores, hex, inf and quoted keys', () => {
    const doc = 'p.q.r = 1\np.s = [\n  1,\n  2, # c\n]\nit = { a = 1, b.c = "d" }\nn = 1_000\nh = 0xff\nf2 = inf\nf3 = 1e2\n"quoted key" = 0\n';
    expect(asPythonJson(doc)).toBe(
      '{"p": {"q": {"r": 1}, "s": [1, 2]}, "it": {"a": 1, "b": {"c": "d"}}, "n": 1000, "h": 255, "f2": Infinity, "f3": 100.0, "quoted key": 0}',
    );
  });

  it.each([
    ['a redefined key', 'a = 1\na = 2\n'],
    ['a table declared twice', '[t]\n[t]\n'],
    ['an inline table reopened as a table', 'x = {a = 1}\n[x]\n'],
    ['an unterminated string', 'a = "x\n'],
    ['an unclosed array', 'a = [1, 2\n'],
    ['two statements on a line', 'a = 1 b = 2\n'],
    ['an unquoted date (not supported; the data files quote dates)', 'a = 1979-05-27\n'],
  ])('rejects %s', (_, doc) => {
    expect(() => parseToml(doc)).toThrow(TomlDecodeError);
  });

  it('reads the telecom DB files: key order of the file, floats stay floats', () => {
    const db = parseToml(readDataFile('domains/telecom/db.toml'));
    expect(Object.keys(db)).toEqual(['plans', 'devices', 'lines', 'customers', 'bills']);
    const user = parseToml(readDataFile('domains/telecom/user_db.toml'));
    expect(dumpsPy((user.device as Record<string, PyValue>).app_statuses!)).toBe(
      '{"messaging": {"app_name": "messaging", "permissions": {"sms": true, "storage": true, "phone": true, "network": false}}, ' +
        '"browser": {"app_name": "browser", "permissions": {"sms": false, "storage": true, "phone": false, "network": true}}}',
    );
    const plan = (db.plans as Record<string, unknown>[])[0]!;
    expect(dumpsPy(plan as never)).toBe(
      '{"plan_id": "P1001", "name": "Basic Plan", "data_limit_gb": 5.0, "price_per_month": 40.0, "data_refueling_price_per_gb": 5.0}',
    );
  });
});
