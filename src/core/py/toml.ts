// A TOML reader for the reference's data files (what Python's `tomllib.loads` returns for them): tables,
// arrays of tables, dotted keys, inline tables and arrays, strings, integers, floats and booleans. Integers
// stay ints and floats become PyFloat; keys keep their order. Date-time literals are not supported (the data
// files quote their dates) and are reported as errors rather than misread.
import { PyError } from './errors.ts';
import { PyFloat } from './float.ts';
import type { PyValue } from './value.ts';

type Table = { [key: string]: PyValue };

/** Python `tomllib.TOMLDecodeError`: the message names the line and column, as tomllib does. */
export class TomlDecodeError extends PyError {
  constructor(msg: string, text: string, index: number) {
    const before = text.slice(0, index);
    const line = (before.match(/\n/g)?.length ?? 0) + 1;
    const column = index - before.lastIndexOf('\n');
    super('TOMLDecodeError', `${msg} (at line ${line}, column ${column})`);
  }
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Readonly<Record<string, string>> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
const INTEGER = /^[+-]?(0|[1-9](_?[0-9])*)$/;
const PREFIXED_INTEGER = /^0(x[0-9A-Fa-f](_?[0-9A-Fa-f])*|o[0-7](_?[0-7])*|b[01](_?[01])*)$/;
const FLOAT = /^[+-]?(0|[1-9](_?[0-9])*)(\.[0-9](_?[0-9])*)?([eE][+-]?[0-9](_?[0-9])*)?$/;
const SPECIAL_FLOATS: Readonly<Record<string, number>> = { inf: Infinity, '+inf': Infinity, '-inf': -Infinity, nan: NaN, '+nan': NaN, '-nan': NaN };
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}/;

/** Tables created by a header or a dotted key are open to further keys; inline tables and values are not. */
interface Kinds {
  readonly frozen: WeakSet<object>;
  readonly arraysOfTables: WeakSet<object>;
  readonly explicit: WeakSet<object>;
}

const setKey = (table: Table, key: string, value: PyValue): void => {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
};

const isTable = (v: PyValue | undefined): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);

class Parser {
  private readonly text: string;
  private pos = 0;
  private readonly kinds: Kinds = { frozen: new WeakSet(), arraysOfTables: new WeakSet(), explicit: new WeakSet() };
  constructor(text: string) {
    this.text = text;
  }

  private fail(msg: string, at = this.pos): never {
    throw new TomlDecodeError(msg, this.text, at);
  }

  private peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  private skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  private skipComment(): void {
    if (this.peek() !== '#') return;
    while (this.pos < this.text.length && this.peek() !== '\n') this.pos++;
  }

  /** Whitespace, newlines and comments (inside arrays and between statements). */
  private skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      this.skipComment();
      if (this.peek() === '\n') this.pos++;
      else if (this.peek() === '\r' && this.peek(1) === '\n') this.pos += 2;
      else return;
    }
  }

  private endOfLine(): void {
    this.skipSpaces();
    this.skipComment();
    if (this.pos >= this.text.length) return;
    if (this.peek() === '\n') this.pos++;
    else if (this.peek() === '\r' && this.peek(1) === '\n') this.pos += 2;
    else this.fail('Expected newline or end of document after a statement');
  }

  parse(): Table {
    const root: Table = {};
    let current = root;
    this.skipBlank();
    while (this.pos < this.text.length) {
      if (this.peek() === '[') current = this.header(root);
      else this.keyValue(current);
      this.endOfLine();
      this.skipBlank();
    }
    return root;
  }

  private header(root: Table): Table {
    const arrayOfTables = this.peek(1) === '[';
    this.pos += arrayOfTables ? 2 : 1;
    this.skipSpaces();
    const keys = this.key();
    this.skipSpaces();
    const close = arrayOfTables ? ']]' : ']';
    if (this.text.slice(this.pos, this.pos + close.length) !== close) this.fail(`Expected '${close}' at the end of a table header`);
    this.pos += close.length;
    const parent = this.descend(root, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    const existing = Object.hasOwn(parent, last) ? parent[last] : undefined;
    if (arrayOfTables) {
      let array: PyValue[];
      if (existing === undefined) {
        array = [];
        this.kinds.arraysOfTables.add(array);
        setKey(parent, last, array);
      } else if (Array.isArray(existing) && this.kinds.arraysOfTables.has(existing)) {
        array = existing;
      } else {
        return this.fail('Cannot append to a value that is not an array of tables');
      }
      const table: Table = {};
      array.push(table);
      return table;
    }
    if (existing === undefined) {
      const table: Table = {};
      this.kinds.explicit.add(table);
      setKey(parent, last, table);
      return table;
    }
    if (!isTable(existing) || this.kinds.frozen.has(existing) || this.kinds.explicit.has(existing)) {
      return this.fail('Cannot declare a table twice');
    }
    this.kinds.explicit.add(existing);
    return existing;
  }

  /** Walks (creating) the tables of a header path; an array of tables continues at its last element. */
  private descend(root: Table, keys: readonly string[]): Table {
    let table = root;
    for (const key of keys) {
      const next = Object.hasOwn(table, key) ? table[key] : undefined;
      if (next === undefined) {
        const created: Table = {};
        setKey(table, key, created);
        table = created;
      } else if (Array.isArray(next) && this.kinds.arraysOfTables.has(next)) {
        table = next[next.length - 1] as Table;
      } else if (isTable(next) && !this.kinds.frozen.has(next)) {
        table = next;
      } else {
        return this.fail('Cannot redefine a value as a table');
      }
    }
    return table;
  }

  private keyValue(table: Table): void {
    const keyAt = this.pos;
    const keys = this.key();
    this.skipSpaces();
    if (this.peek() !== '=') this.fail("Expected '=' after a key");
    this.pos++;
    this.skipSpaces();
    const value = this.value();
    let target = table;
    for (const key of keys.slice(0, -1)) {
      const next = Object.hasOwn(target, key) ? target[key] : undefined;
      if (next === undefined) {
        const created: Table = {};
        setKey(target, key, created);
        target = created;
      } else if (isTable(next) && !this.kinds.frozen.has(next) && !this.kinds.explicit.has(next)) {
        target = next;
      } else {
        this.fail('Cannot overwrite a value', keyAt);
      }
    }
    const last = keys[keys.length - 1]!;
    if (Object.hasOwn(target, last)) this.fail('Cannot overwrite a value', keyAt);
    setKey(target, last, value);
  }

  private key(): string[] {
    const keys = [this.simpleKey()];
    for (;;) {
      this.skipSpaces();
      if (this.peek() !== '.') return keys;
      this.pos++;
      this.skipSpaces();
      keys.push(this.simpleKey());
    }
  }

  private simpleKey(): string {
    const c = this.peek();
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    const start = this.pos;
    while (BARE_KEY.test(this.peek()) && this.peek() !== '') this.pos++;
    if (this.pos === start) this.fail('Invalid initial character for a key part');
    return this.text.slice(start, this.pos);
  }

  private value(): PyValue {
    const c = this.peek();
    if (c === '"') {
      if (this.text.startsWith('"""', this.pos)) this.fail('Multi-line strings are not supported');
      return this.basicString();
    }
    if (c === "'") {
      if (this.text.startsWith("'''", this.pos)) this.fail('Multi-line strings are not supported');
      return this.literalString();
    }
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    return this.scalar();
  }

  private basicString(): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') this.fail('Unterminated string', start);
      this.pos++;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.peek();
      this.pos++;
      if (Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
      } else if (e === 'u' || e === 'U') {
        const width = e === 'u' ? 4 : 8;
        const hex = this.text.slice(this.pos, this.pos + width);
        if (!new RegExp(`^[0-9A-Fa-f]{${width}}$`).test(hex)) this.fail('Invalid hex value in a unicode escape');
        const code = parseInt(hex, 16);
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) this.fail('Escaped character is not a Unicode scalar value');
        out += String.fromCodePoint(code);
        this.pos += width;
      } else {
        this.fail('Unescaped \'\\\' in a string', this.pos - 2);
      }
    }
  }

  private literalString(): string {
    const start = this.pos;
    const end = this.text.indexOf("'", start + 1);
    const newline = this.text.indexOf('\n', start + 1);
    if (end < 0 || (newline >= 0 && newline < end)) this.fail('Unterminated string', start);
    this.pos = end + 1;
    return this.text.slice(start + 1, end);
  }

  private array(): PyValue[] {
    this.pos++;
    const items: PyValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.peek() === ']') break;
      items.push(this.value());
      this.skipBlank();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      if (this.peek() !== ']') this.fail("Unclosed array: expected ',' or ']'");
      break;
    }
    this.pos++;
    this.kinds.frozen.add(items);
    return items;
  }

  private inlineTable(): Table {
    this.pos++;
    const table: Table = {};
    this.skipSpaces();
    if (this.peek() === '}') {
      this.pos++;
      this.kinds.frozen.add(table);
      return table;
    }
    for (;;) {
      this.skipSpaces();
      this.keyValue(table);
      this.skipSpaces();
      const c = this.peek();
      this.pos++;
      if (c === '}') break;
      if (c !== ',') this.fail("Unclosed inline table: expected ',' or '}'", this.pos - 1);
    }
    this.freezeDeep(table);
    return table;
  }

  private freezeDeep(table: Table): void {
    this.kinds.frozen.add(table);
    for (const v of Object.values(table)) if (isTable(v)) this.freezeDeep(v);
  }

  private scalar(): PyValue {
    const start = this.pos;
    while (this.pos < this.text.length && !/[\s,\]}#]/.test(this.peek())) this.pos++;
    const token = this.text.slice(start, this.pos);
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (DATE_LIKE.test(token)) this.fail('Date and time values are not supported', start);
    if (INTEGER.test(token)) return parseDecimalInteger(token);
    if (PREFIXED_INTEGER.test(token)) return Number(token.replaceAll('_', ''));
    if (FLOAT.test(token)) return new PyFloat(Number(token.replaceAll('_', '')));
    if (Object.hasOwn(SPECIAL_FLOATS, token)) return new PyFloat(SPECIAL_FLOATS[token]!);
    return this.fail(token === '' ? 'Invalid value' : `Invalid value '${token}'`, start);
  }
}

const parseDecimalInteger = (token: string): number => {
  const digits = token.replaceAll('_', '');
  const n = Number(digits);
  // ints beyond 2**53 cannot be held exactly by the engine's int representation
  if (!Number.isSafeInteger(n)) throw new PyError('ValueError', `Integer ${digits} is out of the supported range`);
  return n === 0 ? 0 : n;
};

/** Parses a TOML document into Python values: dicts in key order, ints, PyFloat floats, str, bool, lists. */
export const parseToml = (text: string): Table => new Parser(text.startsWith('\ufeff') ? text.slice(1) : text).parse();
