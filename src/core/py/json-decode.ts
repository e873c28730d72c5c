// Python's json.loads on the value domain: a strict scanner that keeps int/float kinds and Python's errors.
import { PyError } from './errors.ts';
import { PyFloat } from './float.ts';
import { isIndexLikeKey } from './value.ts';
import type { PyValue } from './value.ts';

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
const LITERALS: readonly [string, PyValue | number][] = [
  ['null', null], ['true', true], ['false', false], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
];

/**
 * A key given twice in one object, when the text is read with `uniqueKeys` (Python keeps the last one silently).
 * The scanner that reads number kinds sees every key as it goes, so it checks here rather than in a second parse.
 */
export class DuplicateKeyError extends Error {
  /** Where the object is, as `a.b.0` (empty at the top level). */
  readonly path: string;
  readonly key: string;
  constructor(path: string, key: string) {
    super(`Duplicate key ${JSON.stringify(key)}${path ? ` in ${path}` : ''}`);
    this.name = 'DuplicateKeyError';
    this.path = path;
    this.key = key;
  }
}

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
  /** The index of the next character to read. */
  pos = 0;
  /** With `uniqueKeys`: the keys and indexes leading to the value being read. */
  private readonly path: (string | number)[] | null;
  constructor(text: string, uniqueKeys = false) {
    this.text = text;
    this.path = uniqueKeys ? [] : null;
  }

  fail(msg: string, index: number): never {
    throw new PyJsonDecodeError(msg, this.text, index);
  }

  skipWs(): void {
    const t = this.text;
    let i = this.pos;
    while (i < t.length && isWs(t.charCodeAt(i))) i++;
    this.pos = i;
  }

  /** The value at `pos`; `pos` moves just past it. */
  value(): PyValue {
    const t = this.text;
    const i = this.pos;
    const c = t.charCodeAt(i);
    if (c === 0x22) {
      this.pos = i + 1;
      return this.string();
    }
    if (c === 0x7b) {
      this.pos = i + 1;
      return this.object();
    }
    if (c === 0x5b) {
      this.pos = i + 1;
      return this.array();
    }
    for (const [literal, value] of LITERALS) {
      if (c === literal.charCodeAt(0) && t.startsWith(literal, i)) {
        this.pos = i + literal.length;
        return typeof value === 'number' ? new PyFloat(value) : value;
      }
    }
    return this.number();
  }

  number(): PyValue {
    const t = this.text;
    const start = this.pos;
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
    this.pos = i;
    const n = Number(t.slice(start, i));
    return float ? new PyFloat(n) : n === 0 ? 0 : n;
  }

  /** The string whose opening quote is just before `pos`. */
  string(): string {
    const t = this.text;
    const begin = this.pos - 1;
    let out = '';
    let i = this.pos;
    for (;;) {
      let j = i;
      let c = 0;
      for (; j < t.length; j++) {
        c = t.charCodeAt(j);
        if (c === 0x22 || c === 0x5c) break;
        if (c <= 0x1f) this.fail('Invalid control character at', j);
      }
      if (j >= t.length) this.fail('Unterminated string starting at', begin);
      out += t.slice(i, j);
      if (c === 0x22) {
        this.pos = j + 1;
        return out;
      }
      if (j + 1 >= t.length) this.fail('Unterminated string starting at', begin);
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

  /** A dict: a plain object until an index-like key appears, from then on a Map (see PyValue). */
  object(): PyValue {
    const t = this.text;
    const obj: Record<string, PyValue> = {};
    let map: Map<string, PyValue> | null = null;
    this.skipWs();
    if (t.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (t.charCodeAt(this.pos) !== 0x22) this.fail('Expecting property name enclosed in double quotes', this.pos);
      this.pos++;
      const key = this.string();
      this.skipWs();
      if (t.charCodeAt(this.pos) !== 0x3a) this.fail("Expecting ':' delimiter", this.pos);
      this.pos++;
      this.skipWs();
      if (map === null && isIndexLikeKey(key)) map = new Map(Object.entries(obj));
      const path = this.path;
      if (path !== null) {
        if (map === null ? Object.hasOwn(obj, key) : map.has(key)) throw new DuplicateKeyError(path.join('.'), key);
        path.push(key);
      }
      if (map === null) setKey(obj, key, this.value());
      else map.set(key, this.value());
      path?.pop();
      this.skipWs();
      const c = t.charCodeAt(this.pos++);
      if (c === 0x7d) return map ?? obj;
      if (c !== 0x2c) this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }

  array(): PyValue {
    const t = this.text;
    const arr: PyValue[] = [];
    this.skipWs();
    if (t.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return arr;
    }
    for (;;) {
      this.path?.push(arr.length);
      arr.push(this.value());
      this.path?.pop();
      this.skipWs();
      const c = t.charCodeAt(this.pos++);
      if (c === 0x5d) return arr;
      if (c !== 0x2c) this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }
}

/**
 * Python `json.loads(text)`: a literal with `.` or an exponent becomes a PyFloat, any other number an int;
 * `NaN`, `Infinity` and `-Infinity` are accepted; errors are PyJsonDecodeError with Python's message.
 */
export const parsePyJson = (text: string, options: { readonly uniqueKeys?: boolean } = {}): PyValue => {
  const scanner = new Scanner(text, options.uniqueKeys === true);
  if (text.charCodeAt(0) === 0xfeff) scanner.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
  let result: PyValue;
  try {
    scanner.skipWs();
    result = scanner.value();
  } catch (e) {
    if (e instanceof NoValue) scanner.fail('Expecting value', e.index);
    throw e;
  }
  scanner.skipWs();
  if (scanner.pos !== text.length) scanner.fail('Extra data', scanner.pos);
  return result;
};
