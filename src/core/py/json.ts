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
  /**
   * Remember the text of every deep-frozen list and dict for later calls with the same options, so dumping a
   * copy-on-write DB again after a few records changed encodes only the changed paths. Ignored with `indent`.
   */
  readonly rememberFrozen?: boolean;
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

/**
 * A container whose content can never change: frozen, and for a Map also with its mutators disabled (as immer's
 * freeze leaves it), since freezing a Map does not stop `set` or `delete`.
 */
const isUnchangeable = (v: object): boolean =>
  Object.isFrozen(v) &&
  (!(v instanceof Map) || (v.set !== Map.prototype.set && v.delete !== Map.prototype.delete && v.clear !== Map.prototype.clear));

/** Texts of deep-frozen containers, one table per option set (`sortKeys`, `ensureAscii`) that changes the text. */
const rememberedTexts = new Map<string, WeakMap<object, string>>();
const rememberedFor = (sortKeys: boolean, ensureAscii: boolean): WeakMap<object, string> => {
  const key = `${sortKeys}/${ensureAscii}`;
  let texts = rememberedTexts.get(key);
  if (texts === undefined) rememberedTexts.set(key, (texts = new WeakMap()));
  return texts;
};

class Encoder {
  readonly stack = new Set<object>();
  readonly sortKeys: boolean;
  readonly indent: string | null;
  readonly ensureAscii: boolean;
  readonly escapes: RegExp;
  /** Where deep-frozen containers' texts are kept (a container's text depends on its level when indented). */
  readonly remembered: WeakMap<object, string> | null;
  /** Whether every value written since the innermost open container began is deep-frozen. */
  frozen = true;
  constructor(opts: DumpsOptions) {
    this.sortKeys = opts.sortKeys ?? false;
    this.indent = opts.indent === undefined || opts.indent === null ? null : ' '.repeat(Math.max(0, opts.indent));
    this.ensureAscii = opts.ensureAscii ?? true;
    this.escapes = this.ensureAscii ? ASCII_ESCAPES : BASIC_ESCAPES;
    this.remembered = opts.rememberFrozen && this.indent === null ? rememberedFor(this.sortKeys, this.ensureAscii) : null;
  }

  string(s: string): string {
    this.escapes.lastIndex = 0;
    return this.escapes.test(s) ? encodeJsonString(s, this.ensureAscii) : `"${s}"`;
  }

  /** Opens a container's encoding; returns whether everything before it in its parent was deep-frozen. */
  enter(container: object): boolean {
    if (this.stack.has(container)) throw new PyError('ValueError', 'Circular reference detected');
    this.stack.add(container);
    const outer = this.frozen;
    this.frozen = true;
    return outer;
  }

  /** Closes a container's encoding, remembering its text when it and all it holds are frozen. */
  leave(container: object, outer: boolean, text: string): string {
    this.stack.delete(container);
    const frozen = this.frozen && isUnchangeable(container);
    if (frozen) this.remembered?.set(container, text);
    this.frozen = outer && frozen;
    return text;
  }

  /** An empty container writes no items, but a mutable one may hold some later: its parent is not frozen. */
  empty(container: object, text: string): string {
    if (!isUnchangeable(container)) this.frozen = false;
    return text;
  }

  encode(v: unknown, level: number): string {
    if (v === null) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'string') return this.string(v);
    if (typeof v === 'number') return Number.isInteger(v) ? intRepr(v) : floatJson(v);
    if (typeof v === 'bigint') return intRepr(v);
    if (v instanceof PyFloat) {
      if (!Object.isFrozen(v)) this.frozen = false;
      return floatJson(v.value);
    }
    const known = typeof v === 'object' ? this.remembered?.get(v) : undefined;
    if (known !== undefined) return known;
    if (Array.isArray(v)) return this.list(v, level);
    if (isPyJsonable(v)) {
      // Its text is whatever toPyJson returns at the time: never remembered, nor anything holding it.
      this.enter(v);
      const text = this.encode(v.toPyJson(), level);
      this.stack.delete(v);
      this.frozen = false;
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
    if (items.length === 0) return this.empty(items, '[]');
    const outer = this.enter(items);
    const [open, sep, close] = this.layout(level);
    const parts = new Array<string>(items.length);
    for (let i = 0; i < items.length; i++) parts[i] = this.encode(items[i], level + 1);
    return this.leave(items, outer, `[${open}${parts.join(sep)}${close}]`);
  }

  dict(obj: { readonly [key: string]: PyInput } | ReadonlyMap<string, PyInput>, level: number): string {
    const keys = this.sortKeys ? sortedKeys(dictKeys(obj)) : dictKeys(obj);
    const valueOf = isPyMap(obj) ? (key: string) => obj.get(key) : (key: string) => obj[key];
    if (keys.length === 0) return this.empty(obj, '{}');
    const outer = this.enter(obj);
    const [open, sep, close] = this.layout(level);
    const parts = new Array<string>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      parts[i] = `${this.string(key)}: ${this.encode(valueOf(key), level + 1)}`;
    }
    return this.leave(obj, outer, `{${open}${parts.join(sep)}${close}}`);
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
