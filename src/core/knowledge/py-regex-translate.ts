// Python `re` syntax parsed as `sre_parse` reads it, and written out as a JavaScript regular expression (flag
// `v`) that matches the same text. Hand-written: no library converts between the two dialects. What differs is
// expressed here: the flags (global and scoped `i`, `m`, `s`, `x`, `a`) are applied while writing, never left
// to JavaScript's; case-insensitivity is Python's (py-case.ts); `\w`, `\d`, `\s`, `\b` are Unicode unless ASCII;
// `.`, `^`, `$`, `\A`, `\Z` keep their Python meaning; an atomic group or a possessive repeat becomes a lookahead
// that captures plus a backreference to it (the standard exact emulation); `{,n}` and `{,}` are repeats;
// comments and verbose whitespace are dropped; `\N{name}` is looked up in the name table the caller loaded; a
// conditional `(?(group)yes|no)` tests a marker capture written after its group (py-regex-conditional.ts).
// What Python refuses is refused (PyRegexError), including a look-behind whose width is not fixed, which
// JavaScript would accept; what Python accepts but JavaScript cannot express is PyRegexUnsupported.
import { caseVariants, charVariants } from './py-case.ts';
import type { CodePointSet } from './py-case.ts';
import type { CharacterNameLookup } from './unicode-name-table.ts';
import { conditionalSource, groupMarker } from './py-regex-conditional.ts';

/** Thrown for a pattern that Python's `re.compile` rejects. */
export class PyRegexError extends Error {
  override readonly name = 'PyRegexError';
}

/** Thrown for a pattern Python accepts whose meaning JavaScript's engine cannot reproduce. */
export class PyRegexUnsupported extends Error {
  override readonly name = 'PyRegexUnsupported';
}

interface Flags {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
  readonly x: boolean;
  readonly a: boolean;
}

interface Node {
  readonly js: string;
  readonly min: number;
  readonly max: number;
  /** An anchor: Python refuses to repeat it. */
  readonly anchor?: boolean;
  /** Already a repeat: repeating it again is "multiple repeat". */
  readonly repeat?: boolean;
  /** The groups it opens, first and last (none when first > last). */
  readonly groups?: readonly [number, number];
}

type ClassItem = { readonly lo: number; readonly hi: number } | { readonly category: string };

const DIGITS = /[0-9]/;
const OCTAL = /[0-7]/;
const HEX = /^[0-9a-fA-F]+$/;
const WHITESPACE = ' \t\n\r\v\f';
const MAX_REPEAT = 4294967295;

const WORD = { unicode: '[\\p{L}\\p{N}_]', ascii: '[A-Za-z0-9_]' };
const NOT_WORD = { unicode: '[^\\p{L}\\p{N}_]', ascii: '[^A-Za-z0-9_]' };
const SPACE = { unicode: '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]', ascii: '[ \\t\\n\\r\\f\\v]' };
const NOT_SPACE = { unicode: `[^${SPACE.unicode.slice(1)}`, ascii: '[^ \\t\\n\\r\\f\\v]' };
const CATEGORIES: Readonly<Record<string, { unicode: string; ascii: string }>> = {
  d: { unicode: '\\p{Nd}', ascii: '[0-9]' },
  D: { unicode: '\\P{Nd}', ascii: '[^0-9]' },
  w: WORD,
  W: NOT_WORD,
  s: SPACE,
  S: NOT_SPACE,
};
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

/** One code point as JavaScript (`v` mode) source: letters and digits as they are, anything else escaped. */
const char = (cp: number): string => (/[A-Za-z0-9]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`);

const category = (name: string, ascii: boolean): string => CATEGORIES[name]![ascii ? 'ascii' : 'unicode'];

const setOf = (items: readonly ClassItem[]): CodePointSet => ({
  has: (cp) => items.some((item) => 'lo' in item && item.lo <= cp && cp <= item.hi),
});

/** A character class (or a single character) with Python's case-insensitivity applied when asked. */
const classSource = (items: readonly ClassItem[], negate: boolean, flags: Flags): string => {
  // A category is a nested class (or property), which the `v` flag allows inside a class.
  const parts = items.map((item) =>
    'category' in item ? category(item.category, flags.a) : item.lo === item.hi ? char(item.lo) : `${char(item.lo)}-${char(item.hi)}`,
  );
  const variants = flags.i ? caseVariants(setOf(items), flags.a) : [];
  return `[${negate ? '^' : ''}${[...parts, ...variants.map(char)].join('')}]`;
};

/** One character, with the characters Python's case-insensitivity makes equal to it. */
const literalSource = (cp: number, flags: Pick<Flags, 'i' | 'a'>): string => {
  const variants = flags.i ? charVariants(cp, flags.a) : [];
  return variants.length === 0 ? char(cp) : `[${[cp, ...variants].map(char).join('')}]`;
};

class Translator {
  private pos = 0;
  /** Python's group count; group n is named `_gn` in JavaScript unless it has a name of its own. */
  private groups = 0;
  private readonly names = new Map<string, number>();
  private readonly jsNames = new Map<number, string>();
  private readonly widths = new Map<number, readonly [number, number]>();
  private atomics = 0;
  /** The groups conditionals test, and the groups whose captures JavaScript would not keep as Python does. */
  readonly conditionGroups = new Set<number>();
  private readonly repeatedGroups = new Set<number>();
  private readonly lookaheadGroups = new Set<number>();
  private lookaheads = 0;
  /** Inside a look-behind (and not in a look-ahead within it), where JavaScript matches right to left. */
  private backward = false;
  /** Inside a look-behind: the groups opened before it (Python's `lookbehindgroups`), else null. */
  private lookbehindGroups: number | null = null;

  private readonly src: string;
  private readonly characterNames: CharacterNameLookup | undefined;
  /** Groups followed by a marker capture, for the conditionals that test them. */
  private readonly marked: ReadonlySet<number>;

  constructor(src: string, characterNames: CharacterNameLookup | undefined, marked: ReadonlySet<number> = new Set()) {
    this.src = src;
    this.characterNames = characterNames;
    this.marked = marked;
  }

  translate(): string {
    const flags = this.globalFlags();
    const node = this.alternation(flags);
    if (this.pos < this.src.length) throw new PyRegexError(`unbalanced parenthesis at position ${this.pos}`);
    for (const group of this.conditionGroups) {
      if (group > this.groups) throw new PyRegexError(`invalid group reference ${group}`);
      // A capture inside a repeat is reset by JavaScript on each repetition (Python keeps the last one), and one
      // inside a look-ahead may end after the conditional: the marker could not tell what Python's state holds.
      if (this.repeatedGroups.has(group) || this.lookaheadGroups.has(group)) {
        const where = this.repeatedGroups.has(group) ? 'a repeated group' : 'a look-ahead';
        throw new PyRegexUnsupported(`the conditional (?(${group})...) tests group ${group}, which is inside ${where}; this search cannot evaluate that as Python does`);
      }
    }
    return node.js;
  }

  private error(message: string): PyRegexError {
    return new PyRegexError(`${message} at position ${this.pos}`);
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  /** Leading `(?aiLmsux)` groups: flags for the whole pattern. */
  private globalFlags(): Flags {
    const flags = { i: false, m: false, s: false, x: false, a: false };
    for (let match = /^\(\?([aiLmsux]+)\)/.exec(this.src.slice(this.pos)); match; match = /^\(\?([aiLmsux]+)\)/.exec(this.src.slice(this.pos))) {
      for (const flag of match[1]!) this.setFlag(flags, flag, true);
      this.pos += match[0].length;
    }
    return flags;
  }

  private setFlag(flags: { i: boolean; m: boolean; s: boolean; x: boolean; a: boolean }, flag: string, on: boolean): void {
    if (flag === 'L') throw this.error('bad inline flags: cannot use \'L\' flag with a str pattern');
    if (flag === 'u') return;
    flags[flag as 'i' | 'm' | 's' | 'x' | 'a'] = on;
  }

  private alternation(flags: Flags): Node {
    const branches = [this.sequence(flags)];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.sequence(flags));
    }
    if (branches.length === 1) return branches[0]!;
    return {
      js: `(?:${branches.map((b) => b.js).join('|')})`,
      min: Math.min(...branches.map((b) => b.min)),
      max: Math.max(...branches.map((b) => b.max)),
    };
  }

  private sequence(flags: Flags): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length) {
      const ch = this.peek()!;
      if (ch === '|' || ch === ')') break;
      if (flags.x && WHITESPACE.includes(ch)) {
        this.pos++;
        continue;
      }
      if (flags.x && ch === '#') {
        while (this.pos < this.src.length && this.peek() !== '\n') this.pos++;
        continue;
      }
      if ('*+?{'.includes(ch)) {
        const repeat = this.repeatBounds();
        if (repeat === null) {
          this.pos++;
          items.push({ js: char(123), min: 1, max: 1 });
          continue;
        }
        const last = items.pop();
        if (!last || last.anchor) throw this.error('nothing to repeat');
        if (last.repeat) throw this.error('multiple repeat');
        items.push(this.repeat(last, repeat));
        continue;
      }
      const firstGroup = this.groups + 1;
      const atom = this.atom(flags);
      if (atom) items.push({ ...atom, groups: [firstGroup, this.groups] });
    }
    return {
      js: items.map((n) => n.js).join(''),
      min: items.reduce((a, n) => a + n.min, 0),
      max: items.reduce((a, n) => Math.min(MAX_REPEAT, a + n.max), 0),
    };
  }

  /** The bounds of the repeat at the cursor (consumed), or null for a `{` that is a literal. */
  private repeatBounds(): { min: number; max: number } | null {
    const ch = this.peek()!;
    if (ch !== '{') {
      this.pos++;
      return ch === '*' ? { min: 0, max: MAX_REPEAT } : ch === '+' ? { min: 1, max: MAX_REPEAT } : { min: 0, max: 1 };
    }
    const match = /^\{(\d*)(?:(,)(\d*))?\}/.exec(this.src.slice(this.pos));
    if (!match || this.peek(1) === '}') return null;
    this.pos += match[0].length;
    const min = match[1] ? Number(match[1]) : 0;
    const max = match[2] ? (match[3] ? Number(match[3]) : MAX_REPEAT) : min;
    if (min >= MAX_REPEAT || max > MAX_REPEAT) throw this.error('the repetition number is too large');
    if (max < min) throw this.error('min repeat greater than max repeat');
    return { min, max };
  }

  private repeat(node: Node, { min, max }: { min: number; max: number }): Node {
    if (max > 1 && node.groups) for (let group = node.groups[0]; group <= node.groups[1]; group++) this.repeatedGroups.add(group);
    const quantifier = max === MAX_REPEAT ? (min === 0 ? '*' : min === 1 ? '+' : `{${min},}`) : min === 0 && max === 1 ? '?' : min === max ? `{${min}}` : `{${min},${max}}`;
    const body = `(?:${node.js})${quantifier}`;
    const width = { min: Math.min(MAX_REPEAT, node.min * min), max: max === MAX_REPEAT && node.max > 0 ? MAX_REPEAT : Math.min(MAX_REPEAT, node.max * max) };
    if (this.peek() === '?') {
      this.pos++;
      return { js: `${body}?`, ...width, repeat: true };
    }
    if (this.peek() === '+') {
      this.pos++;
      return { js: this.atomic(body), ...width, repeat: true };
    }
    return { js: body, ...width, repeat: true };
  }

  /** `(?>X)`: X matched once, never backtracked into. */
  private atomic(js: string): string {
    const name = `_a${++this.atomics}`;
    return `(?:(?=(?<${name}>${js}))\\k<${name}>)`;
  }

  /** The code point at the cursor, consumed (an astral character is two UTF-16 units of the source). */
  private next(): number {
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private atom(flags: Flags): Node | null {
    const cp = this.next();
    const ch = String.fromCodePoint(cp);
    if (ch === '\\') return this.escape(flags);
    if (ch === '[') return this.characterClass(flags);
    if (ch === '(') return this.group(flags);
    if (ch === '.') return { js: flags.s ? '[^]' : '[^\\n]', min: 1, max: 1 };
    if (ch === '^') return { js: flags.m ? '(?<![^\\n])' : '(?<![^])', min: 0, max: 0, anchor: true };
    if (ch === '$') return { js: flags.m ? '(?=\\n|(?![^]))' : '(?=\\n?(?![^]))', min: 0, max: 0, anchor: true };
    return this.literal(cp, flags);
  }

  private literal(cp: number, flags: Flags): Node {
    return { js: literalSource(cp, flags), min: 1, max: 1 };
  }

  private escape(flags: Flags): Node | null {
    if (this.pos >= this.src.length) throw this.error('bad escape (end of pattern)');
    const c = String.fromCodePoint(this.next());
    if (c in CATEGORIES) return { js: category(c, flags.a), min: 1, max: 1 };
    const word = flags.a ? WORD.ascii : WORD.unicode;
    if (c === 'b') return { js: `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`, min: 0, max: 0, anchor: true };
    if (c === 'B') return { js: `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word}))`, min: 0, max: 0, anchor: true };
    if (c === 'A') return { js: '(?<![^])', min: 0, max: 0, anchor: true };
    if (c === 'Z') return { js: '(?![^])', min: 0, max: 0, anchor: true };
    if (DIGITS.test(c)) return this.numericEscape(c, flags);
    return this.literal(this.codeEscape(c), flags);
  }

  /** `\0`, octal escapes and group references (`sre_parse`'s rules). */
  private numericEscape(first: string, flags: Flags): Node {
    if (first === '0') {
      let digits = '';
      while (digits.length < 2 && OCTAL.test(this.peek() ?? '')) digits += this.src[this.pos++];
      return this.literal(parseInt(digits || '0', 8), flags);
    }
    let escape = first;
    if (DIGITS.test(this.peek() ?? '')) {
      escape += this.src[this.pos++];
      if (OCTAL.test(escape[0]!) && OCTAL.test(escape[1]!) && OCTAL.test(this.peek() ?? '')) {
        escape += this.src[this.pos++];
        const cp = parseInt(escape, 8);
        if (cp > 0o377) throw this.error(`octal escape value \\${escape} outside of range 0-0o377`);
        return this.literal(cp, flags);
      }
    }
    return this.groupReference(Number(escape));
  }

  private groupReference(group: number): Node {
    const width = this.widths.get(group);
    if (group > this.groups || group === 0) throw this.error(`invalid group reference ${group}`);
    if (!width) throw this.error('cannot refer to an open group');
    return { js: `\\k<${this.jsNames.get(group)}>`, min: width[0], max: width[1] };
  }

  /** The code point of a non-numeric escape, outside or inside a class. */
  private codeEscape(c: string): number {
    if (c in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[c]!;
    const fixed = (length: number, what: string): number => {
      const digits = this.src.slice(this.pos, this.pos + length);
      if (digits.length < length || !HEX.test(digits)) throw this.error(`incomplete escape \\${what}${digits}`);
      this.pos += length;
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff) throw this.error(`bad escape \\${what}${digits}`);
      return cp;
    };
    if (c === 'x') return fixed(2, 'x');
    if (c === 'u') return fixed(4, 'u');
    if (c === 'U') return fixed(8, 'U');
    if (c === 'N') return this.namedCharacter();
    if (/[A-Za-z]/.test(c)) throw this.error(`bad escape \\${c}`);
    return c.codePointAt(0)!;
  }

  /** `\N{name}`: the character `unicodedata.lookup(name)` gives; without a name table, refused. */
  private namedCharacter(): number {
    if (this.peek() !== '{') throw this.error('missing {');
    const end = this.src.indexOf('}', this.pos + 1);
    if (end < 0) throw this.error('missing }, unterminated name');
    const name = this.src.slice(this.pos + 1, end);
    if (name === '') throw this.error('missing character name');
    if (!this.characterNames) throw this.error('character names are not loaded');
    const cp = this.characterNames(name);
    if (cp === undefined) throw this.error(`undefined character name '${name}'`);
    this.pos = end + 1;
    return cp;
  }

  private characterClass(flags: Flags): Node {
    const items: ClassItem[] = [];
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.pos++;
    }
    const start = this.pos;
    for (;;) {
      const ch = this.peek();
      if (ch === undefined) throw this.error('unterminated character set');
      if (ch === ']' && this.pos !== start) {
        this.pos++;
        break;
      }
      const lo = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== undefined && this.peek(1) !== ']') {
        this.pos++;
        const hi = this.classAtom();
        if ('category' in lo || 'category' in hi) throw this.error('bad character range');
        if (hi.lo < lo.lo) throw this.error('bad character range');
        items.push({ lo: lo.lo, hi: hi.lo });
      } else items.push(lo);
    }
    return { js: classSource(items, negate, flags), min: 1, max: 1 };
  }

  private classAtom(): ClassItem {
    const ch = this.next();
    if (ch !== 92) return { lo: ch, hi: ch };
    if (this.pos >= this.src.length) throw this.error('unterminated character set');
    const c = String.fromCodePoint(this.next());
    if (c in CATEGORIES) return { category: c };
    if (c === 'b') return { lo: 8, hi: 8 };
    if (OCTAL.test(c)) {
      let digits = c;
      while (digits.length < 3 && OCTAL.test(this.peek() ?? '')) digits += this.src[this.pos++];
      const cp = parseInt(digits, 8);
      if (cp > 0o377) throw this.error(`octal escape value \\${digits} outside of range 0-0o377`);
      return { lo: cp, hi: cp };
    }
    if (DIGITS.test(c)) throw this.error(`bad escape \\${c}`);
    const cp = this.codeEscape(c);
    return { lo: cp, hi: cp };
  }

  private group(flags: Flags): Node | null {
    if (this.peek() !== '?') return this.capture(flags, null);
    this.pos++;
    const c = this.peek();
    if (c === ':') {
      this.pos++;
      return this.wrap('(?:', flags);
    }
    if (c === '>') {
      this.pos++;
      const inner = this.closed(flags);
      return { ...inner, js: this.atomic(inner.js) };
    }
    if (c === '#') {
      const end = this.src.indexOf(')', this.pos);
      if (end < 0) throw this.error('missing ), unterminated comment');
      this.pos = end + 1;
      return null;
    }
    if (c === '=' || c === '!') {
      this.pos++;
      const direction = this.backward;
      this.lookaheads++;
      this.backward = false;
      const inner = this.closed(flags);
      this.lookaheads--;
      this.backward = direction;
      return { js: `(?:(?${c}${inner.js}))`, min: 0, max: 0 };
    }
    if (c === '<' && (this.peek(1) === '=' || this.peek(1) === '!')) {
      const kind = this.peek(1)!;
      this.pos += 2;
      const [outer, direction] = [this.lookbehindGroups, this.backward];
      this.lookbehindGroups ??= this.groups;
      this.backward = true;
      const inner = this.closed(flags);
      [this.lookbehindGroups, this.backward] = [outer, direction];
      if (inner.min !== inner.max) throw this.error('look-behind requires fixed-width pattern');
      return { js: `(?:(?<${kind}${inner.js}))`, min: 0, max: 0 };
    }
    if (c === '(') {
      this.pos++;
      return this.conditional(flags);
    }
    if (c === 'P' && this.peek(1) === '<') {
      this.pos += 2;
      const end = this.src.indexOf('>', this.pos);
      if (end < 0) throw this.error('missing >, unterminated name');
      const name = this.src.slice(this.pos, end);
      if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) throw this.error(`bad character in group name '${name}'`);
      if (this.names.has(name)) throw this.error(`redefinition of group name '${name}'`);
      this.pos = end + 1;
      return this.capture(flags, name);
    }
    if (c === 'P' && this.peek(1) === '=') {
      this.pos += 2;
      const end = this.src.indexOf(')', this.pos);
      if (end < 0) throw this.error('missing ), unterminated name');
      const name = this.src.slice(this.pos, end);
      const group = this.names.get(name);
      if (group === undefined) throw this.error(`unknown group name '${name}'`);
      this.pos = end + 1;
      return this.groupReference(group);
    }
    return this.flagGroup(flags);
  }

  /** `(?flags-flags:…)` scoped flags; a global `(?flags)` past the start is refused, as Python 3.11 does. */
  private flagGroup(flags: Flags): Node {
    const match = /^([aiLmsux]*)(?:-([imsx]*))?([:)])/.exec(this.src.slice(this.pos));
    if (!match || (match[1] === '' && match[2] === undefined)) throw this.error(`unknown extension ?${this.peek() ?? ''}`);
    if (match[3] === ')') throw this.error('global flags not at the start of the expression');
    if (match[2] === '') throw this.error('missing flag');
    const scoped = { ...flags };
    for (const flag of match[1]!) this.setFlag(scoped, flag, true);
    for (const flag of match[2] ?? '') {
      if (match[1]!.includes(flag)) throw this.error('bad inline flags: flag turned on and off');
      this.setFlag(scoped, flag, false);
    }
    this.pos += match[0].length;
    return this.wrap('(?:', scoped);
  }

  private capture(flags: Flags, name: string | null): Node {
    const group = ++this.groups;
    const jsName = name ?? `_g${group}`;
    if (name) this.names.set(name, group);
    this.jsNames.set(group, jsName);
    if (this.lookaheads > 0) this.lookaheadGroups.add(group);
    const inner = this.closed(flags);
    this.widths.set(group, [inner.min, inner.max]);
    const marker = this.marked.has(group) ? groupMarker(group) : '';
    return { ...inner, js: `(?<${jsName}>${inner.js})${marker}` };
  }

  /** `(?(group)yes|no)`, after its `(?(` (`sre_parse`'s rules for the group: a name, or a number). */
  private conditional(flags: Flags): Node {
    const end = this.src.indexOf(')', this.pos);
    if (end < 0) throw this.error('missing ), unterminated name');
    const name = this.src.slice(this.pos, end);
    if (name === '') throw this.error('missing group name');
    let group: number;
    if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) {
      const named = this.names.get(name);
      if (named === undefined) throw this.error(`unknown group name '${name}'`);
      group = named;
    } else if (/^[0-9]+$/.test(name)) {
      group = Number(name);
      if (group === 0) throw this.error('bad group number');
    } else if (/^\s*\+?\p{Nd}+(?:_\p{Nd}+)*\s*$/u.test(name)) {
      // int() reads these; Python 3.12 deprecates them, and what it makes of them is not reproduced here.
      throw new PyRegexUnsupported(`the conditional group reference '${name}' is not written in ASCII digits`);
    } else throw this.error(`bad character in group name '${name}'`);
    if (this.lookbehindGroups !== null) {
      if (!this.widths.has(group)) throw this.error('cannot refer to an open group');
      if (group > this.lookbehindGroups) throw this.error('cannot refer to group defined in the same lookbehind subpattern');
    }
    this.pos = end + 1;
    this.conditionGroups.add(group);
    const yes = this.sequence(flags);
    let no: Node | null = null;
    if (this.peek() === '|') {
      this.pos++;
      no = this.sequence(flags);
      if (this.peek() === '|') throw this.error('conditional backref with more than two branches');
    }
    if (this.peek() !== ')') throw this.error('missing ), unterminated subpattern');
    this.pos++;
    return {
      js: conditionalSource(group, yes.js, no?.js ?? '', this.backward),
      min: no === null ? 0 : Math.min(yes.min, no.min),
      max: Math.max(yes.max, no?.max ?? 0),
    };
  }

  private wrap(open: string, flags: Flags): Node {
    const inner = this.closed(flags);
    return { ...inner, js: `${open}${inner.js})` };
  }

  /** The alternation up to the group's `)`, consumed. */
  private closed(flags: Flags): Node {
    const inner = this.alternation(flags);
    if (this.peek() !== ')') throw this.error('missing ), unterminated subpattern');
    this.pos++;
    return { js: inner.js, min: inner.min, max: inner.max };
  }
}

export interface PyRegexOptions {
  readonly ignoreCase: boolean;
  /** Resolves `\N{name}`; without it such a pattern is refused (see `loadCharacterNames`). */
  readonly characterNames?: CharacterNameLookup;
}

/** The JavaScript source (for flags `gv`) matching what Python's `re.compile(pattern, flags)` matches. */
export const translatePyRegex = (pattern: string, options: PyRegexOptions): string => {
  const source = options.ignoreCase ? `(?i)${pattern}` : pattern;
  const first = new Translator(source, options.characterNames);
  const js = first.translate();
  // Conditionals name their groups anywhere in the pattern: a second pass writes the markers after those groups.
  return first.conditionGroups.size === 0 ? js : new Translator(source, options.characterNames, first.conditionGroups).translate();
};

/** `re.escape(text)` as a pattern: the text itself, with Python's case-insensitivity when asked. */
export const translateLiteral = (text: string, options: { ignoreCase: boolean }): string =>
  [...text].map((ch) => literalSource(ch.codePointAt(0)!, { i: options.ignoreCase, a: false })).join('');
