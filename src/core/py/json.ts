// Python's json module on the value domain: json.loads keeping int/float kinds, and byte-exact json.dumps.
import { PyError } from './errors.ts';
import { PyFloat } from './float.ts';
import { floatRepr } from './float-format.ts';
import { compareStrings } from './compare.ts';
import { intRepr, isPlainDict, isPyJsonable, jsTypeName } from './value.ts';
import type { PyInput, PyValue } from './value.ts';

export type { PyValue } from './value.ts';

/** Python `json.JSONDecodeError`: `message` is `str(err)`, positions count code points like Python's. */
export class PyJsonDecodeError extends PyError {
  readonly msg: string;
  readonly pos: number;
  readonly lineno: number;
  readonly colno: number;
  constructor(msg: string, text: string, index: number) {
    const codePoints = (end: number): number => {
      let n = end;
      for (let i = 1; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0xdc00 && c <= 0xdfff && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) n--;
      }
      return n;
    };
    const pos = codePoints(index);
    const lastNewline = text.lastIndexOf('\n', index - 1);
    const lineno = (text.slice(0, index).match(/\n/g)?.length ?? 0) + 1;
    const colno = lastNewline < 0 || index === 0 ? pos + 1 : pos - codePoints(lastNewline);
    super('JSONDecodeError', `${msg}: line ${lineno} column ${colno} (char ${pos})`);
    this.msg = msg;
    this.pos = pos;
    this.lineno = lineno;
    this.colno = colno;
  }
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Thrown inside the scanner where CPython's scanner raises StopIteration: becomes "Expecting value". */
class NoValue {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

const setKey = (obj: Record<string, PyValue>, key: string, value: PyValue): void => {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
};

/** A recursive-descent port of the behaviour of CPython's C JSON scanner (strict mode). */
class Scanner {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  fail(msg: string, index: number): never {
    throw new PyJsonDecodeError(msg, this.text, index);
  }

  skipWs(i: number): number {
    while (i < this.text.length && isWs(this.text.charCodeAt(i))) i++;
    return i;
  }

  /** Parses the value at `i`; returns it with the index just after it. */
  value(i: number): [PyValue, number] {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === 0x22) return this.string(i + 1);
    if (c === 0x7b) return this.object(i + 1);
    if (c === 0x5b) return this.array(i + 1);
    if (c === 0x6e && t.startsWith('null', i)) return [null, i + 4];
    if (c === 0x74 && t.startsWith('true', i)) return [true, i + 4];
    if (c === 0x66 && t.startsWith('false', i)) return [false, i + 5];
    if (c === 0x4e && t.startsWith('NaN', i)) return [new PyFloat(NaN), i + 3];
    if (c === 0x49 && t.startsWith('Infinity', i)) return [new PyFloat(Infinity), i + 8];
    if (c === 0x2d && t.startsWith('-Infinity', i)) return [new PyFloat(-Infinity), i + 9];
    return this.number(i);
  }

  number(start: number): [PyValue, number] {
    const t = this.text;
    let i = start;
    if (t.charCodeAt(i) === 0x2d) i++;
    const first = t.charCodeAt(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) while (isDigit(t.charCodeAt(i))) i++;
    else throw new NoValue(start);
    let float = false;
    if (t.charCodeAt(i) === 0x2e && isDigit(t.charCodeAt(i + 1))) {
      float = true;
      i += 2;
      while (isDigit(t.charCodeAt(i))) i++;
    }
    const e = t.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = t.charCodeAt(j);
      if (sign === 0x2b || sign === 0x2d) j++;
      if (isDigit(t.charCodeAt(j))) {
        while (isDigit(t.charCodeAt(j))) j++;
        float = true;
        i = j;
      }
    }
    const n = Number(t.slice(start, i));
    return [float ? new PyFloat(n) : n === 0 ? 0 : n, i];
  }

  string(begin: number): [string, number] {
    const t = this.text;
    let out = '';
    let i = begin;
    for (;;) {
      let j = i;
      let c = 0;
      for (; j < t.length; j++) {
        c = t.charCodeAt(j);
        if (c === 0x22 || c === 0x5c) break;
        if (c <= 0x1f) this.fail('Invalid control character at', j);
      }
      if (j >= t.length) this.fail('Unterminated string starting at', begin - 1);
      out += t.slice(i, j);
      if (c === 0x22) return [out, j + 1];
      if (j + 1 >= t.length) this.fail('Unterminated string starting at', begin - 1);
      const esc = t[j + 1] as string;
      if (esc !== 'u') {
        const simple = SIMPLE_ESCAPES[esc];
        if (simple === undefined) this.fail('Invalid \\escape', j);
        out += simple;
        i = j + 2;
        continue;
      }
      const hex = t.slice(j + 2, j + 6);
      if (j + 6 >= t.length || !HEX4.test(hex)) this.fail('Invalid \\uXXXX escape', j + 1);
      out += String.fromCharCode(parseInt(hex, 16));
      i = j + 6;
    }
  }

  object(start: number): [PyValue, number] {
    const t = this.text;
    const obj: Record<string, PyValue> = {};
    let i = this.skipWs(start);
    if (t.charCodeAt(i) === 0x7d) return [obj, i + 1];
    for (;;) {
      if (t.charCodeAt(i) !== 0x22) this.fail('Expecting property name enclosed in double quotes', i);
      const [key, afterKey] = this.string(i + 1);
      i = this.skipWs(afterKey);
      if (t.charCodeAt(i) !== 0x3a) this.fail("Expecting ':' delimiter", i);
      const [value, afterValue] = this.value(this.skipWs(i + 1));
      setKey(obj, key, value);
      i = this.skipWs(afterValue);
      if (t.charCodeAt(i) === 0x7d) return [obj, i + 1];
      if (t.charCodeAt(i) !== 0x2c) this.fail("Expecting ',' delimiter", i);
      i = this.skipWs(i + 1);
    }
  }

  array(start: number): [PyValue, number] {
    const t = this.text;
    const arr: PyValue[] = [];
    let i = this.skipWs(start);
    if (t.charCodeAt(i) === 0x5d) return [arr, i + 1];
    for (;;) {
      const [value, after] = this.value(i);
      arr.push(value);
      i = this.skipWs(after);
      if (t.charCodeAt(i) === 0x5d) return [arr, i + 1];
      if (t.charCodeAt(i) !== 0x2c) this.fail("Expecting ',' delimiter", i);
      i = this.skipWs(i + 1);
    }
  }
}

/**
 * Python `json.loads(text)`: a literal with `.` or an exponent becomes a PyFloat, any other number an int;
 * `NaN`, `Infinity` and `-Infinity` are accepted; errors are PyJsonDecodeError with Python's message.
 */
export const parsePyJson = (text: string): PyValue => {
  const scanner = new Scanner(text);
  if (text.charCodeAt(0) === 0xfeff) scanner.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
  let result: [PyValue, number];
  try {
    result = scanner.value(scanner.skipWs(0));
  } catch (e) {
    if (e instanceof NoValue) scanner.fail('Expecting value', e.index);
    throw e;
  }
  const end = scanner.skipWs(result[1]);
  if (end !== text.length) scanner.fail('Extra data', end);
  return result[0];
};

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

const byCodePoint = (a: [string, PyInput], b: [string, PyInput]): number => compareStrings(a[0], b[0]);

class Encoder {
  readonly parts: string[] = [];
  readonly stack = new Set<object>();
  readonly sortKeys: boolean;
  readonly indent: string | null;
  readonly ensureAscii: boolean;
  constructor(opts: DumpsOptions) {
    this.sortKeys = opts.sortKeys ?? false;
    this.indent = opts.indent === undefined || opts.indent === null ? null : ' '.repeat(Math.max(0, opts.indent));
    this.ensureAscii = opts.ensureAscii ?? true;
  }

  enter(container: object): void {
    if (this.stack.has(container)) throw new PyError('ValueError', 'Circular reference detected');
    this.stack.add(container);
  }

  /** The separator between items and the text before the closing bracket at nesting `level`. */
  layout(level: number): { open: string; sep: string; close: string } {
    if (this.indent === null) return { open: '', sep: ', ', close: '' };
    const inner = `\n${this.indent.repeat(level + 1)}`;
    return { open: inner, sep: `,${inner}`, close: `\n${this.indent.repeat(level)}` };
  }

  encode(v: unknown, level: number): void {
    const parts = this.parts;
    if (v === null) parts.push('null');
    else if (v === true) parts.push('true');
    else if (v === false) parts.push('false');
    else if (typeof v === 'string') parts.push(encodeJsonString(v, this.ensureAscii));
    else if (typeof v === 'number') parts.push(Number.isInteger(v) ? intRepr(v) : floatJson(v));
    else if (typeof v === 'bigint') parts.push(intRepr(v));
    else if (v instanceof PyFloat) parts.push(floatJson(v.value));
    else if (Array.isArray(v)) this.list(v, level);
    else if (isPyJsonable(v)) {
      this.enter(v);
      this.encode(v.toPyJson(), level);
      this.stack.delete(v);
    } else if (isPlainDict(v)) this.dict(v, level);
    else throw new PyError('TypeError', `Object of type ${jsTypeName(v)} is not JSON serializable`);
  }

  list(items: readonly unknown[], level: number): void {
    if (items.length === 0) {
      this.parts.push('[]');
      return;
    }
    this.enter(items);
    const { open, sep, close } = this.layout(level);
    this.parts.push(`[${open}`);
    items.forEach((item, i) => {
      if (i > 0) this.parts.push(sep);
      this.encode(item, level + 1);
    });
    this.parts.push(`${close}]`);
    this.stack.delete(items);
  }

  dict(obj: { readonly [key: string]: PyInput }, level: number): void {
    const entries = Object.entries(obj);
    if (entries.length === 0) {
      this.parts.push('{}');
      return;
    }
    if (this.sortKeys) entries.sort(byCodePoint);
    this.enter(obj);
    const { open, sep, close } = this.layout(level);
    this.parts.push(`{${open}`);
    entries.forEach(([key, item], i) => {
      if (i > 0) this.parts.push(sep);
      this.parts.push(`${encodeJsonString(key, this.ensureAscii)}: `);
      this.encode(item, level + 1);
    });
    this.parts.push(`${close}}`);
    this.stack.delete(obj);
  }
}

/**
 * Python `json.dumps(value, sort_keys=…, indent=…, ensure_ascii=…)`, byte for byte. Ints print as integers,
 * floats with `repr` (`2.0`, `1e-05`, `NaN`). An object with `toPyJson()` is written as its result (the
 * `default=str` of the reference). `undefined` and other non-Python values raise TypeError.
 */
export const dumpsPy = (value: PyInput, opts: DumpsOptions = {}): string => {
  const encoder = new Encoder(opts);
  encoder.encode(value, 0);
  return encoder.parts.join('');
};
