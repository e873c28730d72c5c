// Python `re`'s IGNORECASE for str patterns, as explicit character sets: two characters are equal when their
// simple lowercase mappings are (U+0130 İ lowers to i, U+212A KELVIN SIGN to k), or when Python's table of
// extra equivalences (re/_casefix.py: ı~i, ſ~s, µ~μ, the Greek symbol variants…) joins them. With the ASCII flag
// only A–Z and a–z fold. Hand-written: JavaScript's `i` flag folds differently (it misses İ and, without `u`,
// the Kelvin sign), and it cannot be switched on and off inside a pattern as Python's scoped flags are.

/** Python 3.11's extra case equivalences (re._casefix), as classes of lowercase code points. */
const EXTRA_CASES: readonly (readonly number[])[] = [
  [0x69, 0x131], [0x73, 0x17f], [0xb5, 0x3bc], [0x345, 0x3b9, 0x1fbe], [0x390, 0x1fd3], [0x3b0, 0x1fe3],
  [0x3b2, 0x3d0], [0x3b5, 0x3f5], [0x3b8, 0x3d1], [0x3ba, 0x3f0], [0x3c0, 0x3d6], [0x3c1, 0x3f1], [0x3c2, 0x3c3],
  [0x3c6, 0x3d5], [0x432, 0x1c80], [0x434, 0x1c81], [0x43e, 0x1c82], [0x441, 0x1c83], [0x442, 0x1c84, 0x1c85],
  [0x44a, 0x1c86], [0x463, 0x1c87], [0x1c88, 0xa64b], [0x1e61, 0x1e9b], [0xfb05, 0xfb06],
];

/** Past the last cased code point (Adlam ends at U+1E94B). */
const CASED_END = 0x1e950;
/** The characters whose lowercase differs from them (İ among them). */
const CHANGES_WHEN_LOWERCASED = /\p{Changes_When_Lowercased}/gv;

/** The simple (one code point) lowercase mapping, as Python's `sre` lowers. */
const simpleLower = (cp: number): number => {
  if (cp === 0x130) return 0x69;
  const lower = String.fromCodePoint(cp).toLowerCase();
  const first = lower.codePointAt(0)!;
  return lower.length === String.fromCodePoint(first).length ? first : cp;
};

interface CaseTable {
  /** Every code point whose case matters: it lowers to another, another lowers to it, or it has extra equivalents. */
  readonly cased: readonly number[];
  readonly lower: ReadonlyMap<number, number>;
  readonly extra: ReadonlyMap<number, readonly number[]>;
  /** For each lowercase: every code point that lowers to it, itself included. */
  readonly lowering: ReadonlyMap<number, readonly number[]>;
}

let table: CaseTable | undefined;

/** Built once, on the first case-insensitive pattern (about 120,000 code points looked at). */
const caseTable = (): CaseTable => {
  if (table) return table;
  const lower = new Map<number, number>();
  const chunks: string[] = [];
  for (let start = 0; start < CASED_END; start += 0x1000) {
    const cps: number[] = [];
    for (let cp = start; cp < Math.min(start + 0x1000, CASED_END); cp++) if (cp < 0xd800 || cp > 0xdfff) cps.push(cp);
    chunks.push(String.fromCodePoint(...cps));
  }
  for (const [ch] of chunks.join('').matchAll(CHANGES_WHEN_LOWERCASED)) {
    const cp = ch.codePointAt(0)!;
    const l = simpleLower(cp);
    if (l !== cp) lower.set(cp, l);
  }
  const extra = new Map<number, number[]>();
  for (const group of EXTRA_CASES) for (const cp of group) extra.set(cp, group.filter((other) => other !== cp));
  const cased = new Set<number>([...lower.keys(), ...lower.values(), ...extra.keys()]);
  const lowering = new Map<number, number[]>();
  for (const cp of cased) {
    const l = lower.get(cp) ?? cp;
    lowering.set(l, [...(lowering.get(l) ?? []), cp]);
  }
  table = { cased: [...cased].sort((a, b) => a - b), lower, extra, lowering };
  return table;
};

/** A set of code points given as ranges and single code points (a character class's items). */
export interface CodePointSet {
  has(cp: number): boolean;
}

/**
 * The code points a case-insensitive match of `set` also accepts: every `ch` whose lowercase is the lowercase
 * (or an extra equivalent of it) of a member. The members themselves are not repeated.
 */
/** The code points a case-insensitive match of the character `cp` also accepts. */
export const charVariants = (cp: number, ascii: boolean): number[] => {
  if (ascii) {
    const letter = String.fromCodePoint(cp);
    return /[A-Z]/.test(letter) ? [cp + 32] : /[a-z]/.test(letter) ? [cp - 32] : [];
  }
  const { lower, extra, lowering } = caseTable();
  const l = lower.get(cp) ?? cp;
  const equal = [l, ...(extra.get(l) ?? [])].flatMap((e) => lowering.get(e) ?? [e]);
  return [...new Set(equal)].filter((other) => other !== cp);
};

export const caseVariants = (set: CodePointSet, ascii: boolean): number[] => {
  if (ascii) {
    const out: number[] = [];
    for (let cp = 0x41; cp <= 0x5a; cp++) {
      if (set.has(cp) && !set.has(cp + 32)) out.push(cp + 32);
      if (set.has(cp + 32) && !set.has(cp)) out.push(cp);
    }
    return out;
  }
  const { cased, lower, extra } = caseTable();
  const lowered = new Set<number>();
  for (const cp of cased) {
    if (!set.has(cp)) continue;
    const l = lower.get(cp) ?? cp;
    lowered.add(l);
    for (const e of extra.get(l) ?? []) lowered.add(e);
  }
  return cased.filter((cp) => !set.has(cp) && lowered.has(lower.get(cp) ?? cp));
};
