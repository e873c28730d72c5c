// Python's json module on the value domain: byte-exact json.dumps, and json.loads from json-decode.ts.
import { PyError } from './errors.ts';
import { PyFloat } from './float.ts';
import { floatRepr } from './float-format.ts';
import { compareStrings } from './compare.ts';
import { dictKeys, intRepr, isPlainDict, isPyJsonable, isPyMap, jsTypeName } from './value.ts';
import type { PyInput } from './value.ts';

export type { PyValue } from './value.ts';
export { DuplicateKeyError, PyJsonDecodeError, parsePyJson } from './json-decode.ts';

export interface DumpsOptions {
  /** `sort_keys`: order dict keys by code point. Default false. */
  readonly sortKeys?: boolean;
  /** `indent`: null (default) gives one line with `", "`/`": "`; a number gives `","` + newline indentation. */
  readonly indent?: number | null;
  /** `ensure_ascii`: escape every non-ASCII code unit as `\uXXXX`. Default true. */
  readonly ensureAscii?: boolean;
}

const ASCII_ESCAPES = /[\\"\x00-\x1f\x7f-\uffff]/g;
const BASIC_ESCAPES = /[\\"\x00-\x1f]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\', '"': '\\"', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};
const escapeChar = (c: string): string => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A JSON string literal exactly as Python's encoder writes it (lowercase hex, surrogate pairs). */
export const encodeJsonString = (s: string, ensureAscii = true): string =>
  `"${s.replace(ensureAscii ? ASCII_ESCAPES : BASIC_ESCAPES, escapeChar)}"`;

const floatJson = (x: number): string => {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return floatRepr(x);
};

/** Dict keys in Python order: code points (UTF-16 order agrees unless a key has a char ≥ U+D800). */
const sortedKeys = (keys: string[]): string[] => {
  return keys.some((k) => HIGH_UNITS.test(k)) ? keys.sort(compareStrings) : keys.sort();
};
const HIGH_UNITS = /[\ud800-\uffff]/;

class Encoder {
  readonly stack = new Set<object>();
  readonly sortKeys: boolean;
  readonly indent: string | null;
  readonly ensureAscii: boolean;
  readonly escapes: RegExp;
  constructor(opts: DumpsOptions) {
    this.sortKeys = opts.sortKeys ?? false;
    this.indent = opts.indent === undefined || opts.indent === null ? null : ' '.repeat(Math.max(0, opts.indent));
    this.ensureAscii = opts.ensureAscii ?? true;
    this.escapes = this.ensureAscii ? ASCII_ESCAPES : BASIC_ESCAPES;
  }

  string(s: string): string {
    this.escapes.lastIndex = 0;
    return this.escapes.test(s) ? encodeJsonString(s, this.ensureAscii) : `"${s}"`;
  }

  enter(container: object): void {
    if (this.stack.has(container)) throw new PyError('ValueError', 'Circular reference detected');
    this.stack.add(container);
  }

  encode(v: unknown, level: number): string {
    if (v === null) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'string') return this.string(v);
    if (typeof v === 'number') return Number.isInteger(v) ? intRepr(v) : floatJson(v);
    if (typeof v === 'bigint') return intRepr(v);
    if (v instanceof PyFloat) return floatJson(v.value);
    if (Array.isArray(v)) return this.list(v, level);
    if (isPyJsonable(v)) {
      this.enter(v);
      const text = this.encode(v.toPyJson(), level);
      this.stack.delete(v);
      return text;
    }
    if (isPlainDict(v) || isPyMap(v)) return this.dict(v, level);
    throw new PyError('TypeError', `Object of type ${jsTypeName(v)} is not JSON serializable`);
  }

  /** The text after an opening bracket, between items, and before the closing bracket at nesting `level`. */
  layout(level: number): [string, string, string] {
    if (this.indent === null) return ['', ', ', ''];
    const inner = `\n${this.indent.repeat(level + 1)}`;
    return [inner, `,${inner}`, `\n${this.indent.repeat(level)}`];
  }

  list(items: readonly unknown[], level: number): string {
    if (items.length === 0) return '[]';
    this.enter(items);
    const [open, sep, close] = this.layout(level);
    let out = `[${open}`;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out += sep;
      out += this.encode(items[i], level + 1);
    }
    this.stack.delete(items);
    return `${out}${close}]`;
  }

  dict(obj: { readonly [key: string]: PyInput } | ReadonlyMap<string, PyInput>, level: number): string {
    const keys = this.sortKeys ? sortedKeys(dictKeys(obj)) : dictKeys(obj);
    const valueOf = isPyMap(obj) ? (key: string) => obj.get(key) : (key: string) => obj[key];
    if (keys.length === 0) return '{}';
    this.enter(obj);
    const [open, sep, close] = this.layout(level);
    let out = `{${open}`;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (i > 0) out += sep;
      out += `${this.string(key)}: ${this.encode(valueOf(key), level + 1)}`;
    }
    this.stack.delete(obj);
    return `${out}${close}}`;
  }
}

/**
 * Python `json.dumps(value, sort_keys=…, indent=…, ensure_ascii=…)`, byte for byte. Ints print as integers,
 * floats with `repr` (`2.0`, `1e-05`, `NaN`). An object with `toPyJson()` is written as its result (the
 * `default=str` of the reference). `undefined` and other non-Python values raise TypeError.
 */
export const dumpsPy = (value: PyInput, opts: DumpsOptions = {}): string => {
  return new Encoder(opts).encode(value, 0);
};
