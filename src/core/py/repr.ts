// Python str() and repr() of the value domain (True/None, 2.0, ['a', 1], {'k': 'v'}).
import { PyError } from './errors.ts';
import { PyFloat } from './float.ts';
import { floatRepr } from './float-format.ts';
import { dictEntries, intRepr, isPyDict, isPyJsonable, jsTypeName } from './value.ts';
import type { PyInput } from './value.ts';

/** Characters Python's `str.isprintable` rejects: categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs. */
const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

const hex = (cp: number, width: number): string => cp.toString(16).padStart(width, '0');

const escapeCodePoint = (ch: string, quote: string): string => {
  if (ch === quote || ch === '\\') return `\\${ch}`;
  if (ch === '\t') return '\\t';
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (cp < 0x7f || (ch !== ' ' && !NON_PRINTABLE.test(ch))) return ch;
  if (cp <= 0xff) return `\\x${hex(cp, 2)}`;
  if (cp <= 0xffff) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
};

/** Python `repr(str)`: single quotes unless the text has `'` and no `"`; non-printables escaped. */
export const strRepr = (s: string): string => {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  if (/^[ !#-&(-[\]-~]*$/.test(s)) return quote + s + quote;
  let out = quote;
  for (const ch of s) out += escapeCodePoint(ch, quote);
  return out + quote;
};

const reprValue = (v: unknown, seen: Set<object>): string => {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return strRepr(v);
  if (typeof v === 'number') return Number.isInteger(v) ? intRepr(v) : floatRepr(v);
  if (typeof v === 'bigint') return intRepr(v);
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (isPyJsonable(v)) return v.toPyRepr ? v.toPyRepr() : reprValue(v.toPyJson(), seen);
  if (Array.isArray(v)) {
    if (seen.has(v)) return '[...]';
    seen.add(v);
    const text = `[${v.map((item: unknown) => reprValue(item, seen)).join(', ')}]`;
    seen.delete(v);
    return text;
  }
  if (isPyDict(v)) {
    if (seen.has(v)) return '{...}';
    seen.add(v);
    const items = dictEntries<PyInput>(v).map(([k, item]) => `${strRepr(k)}: ${reprValue(item, seen)}`);
    seen.delete(v);
    return `{${items.join(', ')}}`;
  }
  throw new PyError('TypeError', `no Python repr for a value of type ${jsTypeName(v)}`);
};

/** Python `repr(v)`: strings quoted, containers recursive (`[1, 'a', None]`, `{'k': 2.0}`); undefined as None. */
export const pyRepr = (v: PyInput | undefined): string => reprValue(v, new Set());

/** Python `str(v)`: a string is itself, everything else as `repr` (`True`, `None`, `2.0`, `['a']`); undefined as None. */
export const pyStr = (v: PyInput | undefined): string => {
  if (typeof v === 'string') return v;
  if (isPyJsonable(v)) return v.toPyStr ? v.toPyStr() : pyStr(v.toPyJson());
  return reprValue(v, new Set());
};
