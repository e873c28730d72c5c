// Unicode 14.0.0 character names (the Unicode version of Python 3.11's `unicodedata`), looked up as
// `unicodedata.lookup` does for `re`'s `\N{…}`: names and their aliases (NameAliases.txt) ignoring ASCII case;
// Hangul syllables and CJK unified ideographs by their algorithmic names, upper case only. Named sequences are
// not characters, so `re` refuses them. The data are @unicode/unicode-14.0.0's files, read as text: the
// package decodes them with node:zlib, which Workers lack, so the gzip payload is read here with
// DecompressionStream. Hand-written lookup rules: they must match CPython's `_getcode` exactly.
/**
 * The package's data files the table is built from, in the order `loadCharacterNameLookup` takes their texts:
 * the names, then the aliases by kind. Each runtime supplies their texts (see `useCharacterNameFiles`).
 */
export const UNICODE_NAME_MODULES = [
  '@unicode/unicode-14.0.0/Names/index.mjs',
  '@unicode/unicode-14.0.0/Names/Abbreviation/index.mjs',
  '@unicode/unicode-14.0.0/Names/Alternate/index.mjs',
  '@unicode/unicode-14.0.0/Names/Control/index.mjs',
  '@unicode/unicode-14.0.0/Names/Correction/index.mjs',
  '@unicode/unicode-14.0.0/Names/Figment/index.mjs',
] as const;

/** A character name's code point, or undefined when Python's `unicodedata.lookup` would not find one character. */
export type CharacterNameLookup = (name: string) => number | undefined;

const PAYLOAD = /Buffer\.from\('([A-Za-z0-9+/=]+)', 'base64'\)/;

/** The JSON each data file carries as base64 gzip. */
const payload = async (file: unknown): Promise<unknown> => {
  const base64 = PAYLOAD.exec(String(file))?.[1];
  if (base64 === undefined) throw new Error('@unicode/unicode-14.0.0: unexpected data file layout');
  const gzip = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([gzip]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
};

const HANGUL_PREFIX = 'HANGUL SYLLABLE ';
const HANGUL_BASE = 0xac00;
const LEADS = ['G', 'GG', 'N', 'D', 'DD', 'R', 'M', 'B', 'BB', 'S', 'SS', '', 'J', 'JJ', 'C', 'K', 'T', 'P', 'H'];
const VOWELS = ['A', 'AE', 'YA', 'YAE', 'EO', 'E', 'YEO', 'YE', 'O', 'WA', 'WAE', 'OE', 'YO', 'U', 'WEO', 'WE', 'WI', 'YU', 'EU', 'YI', 'I'];
const TAILS = ['', 'G', 'GG', 'GS', 'N', 'NJ', 'NH', 'D', 'L', 'LG', 'LM', 'LB', 'LS', 'LT', 'LP', 'LH', 'M', 'B', 'BS', 'S', 'SS', 'NG', 'J', 'C', 'K', 'T', 'P', 'H'];
const CJK_PREFIX = 'CJK UNIFIED IDEOGRAPH-';
const CJK_RANGE_LABEL = /^CJK Ideograph/;

/** The index of the longest jamo name at `pos` (CPython's `find_syllable`), and its length. */
const jamo = (names: readonly string[], text: string, pos: number): [number, number] => {
  let best: [number, number] = [-1, -1];
  names.forEach((name, index) => {
    if (name.length > best[1] && text.startsWith(name, pos)) best = [index, name.length];
  });
  return best;
};

const hangul = (name: string): number | undefined => {
  let pos = HANGUL_PREFIX.length;
  const parts = [LEADS, VOWELS, TAILS].map((names) => {
    const [index, length] = jamo(names, name, pos);
    pos += Math.max(length, 0);
    return index;
  });
  const [l, v, t] = parts as [number, number, number];
  if (l < 0 || v < 0 || t < 0 || pos !== name.length) return undefined;
  return HANGUL_BASE + (l * VOWELS.length + v) * TAILS.length + t;
};

/** ASCII upper case only: Python compares names with `Py_TOUPPER`, so `ı` or `ß` never match. */
const asciiUpper = (text: string): string => text.replace(/[a-z]+/g, (s) => s.toUpperCase());

/** The lookup, from the texts of the `UNICODE_NAME_MODULES` files in their order. */
export const loadCharacterNameLookup = async (files: readonly string[]): Promise<CharacterNameLookup> => {
  const [runs, ...aliasTables] = await Promise.all(files.map(payload));
  const byName = new Map<string, number>();
  const ideographs: [number, number][] = [];
  const rle = runs as number[];
  for (let i = 0, cp = 0; i + 2 < rle.length; i += 3) {
    cp += rle[i]!;
    const length = rle[i + 1]!;
    const value = rle[i + 2] as unknown as string;
    // Runs longer than one are ranges with a label (`<control>`, `CJK Ideograph…`), not names.
    if (length === 1 && !value.startsWith('<')) byName.set(value, cp);
    else if (CJK_RANGE_LABEL.test(value)) ideographs.push([cp, cp + length - 1]);
    cp += length;
  }
  for (const table of aliasTables as Record<string, string[]>[]) {
    for (const [cp, aliases] of Object.entries(table)) for (const alias of aliases) byName.set(alias, Number(cp));
  }
  return (name) => {
    if (name.startsWith(HANGUL_PREFIX)) return hangul(name);
    if (name.startsWith(CJK_PREFIX)) {
      const hex = name.slice(CJK_PREFIX.length);
      if (!/^[0-9A-F]{4,5}$/.test(hex)) return undefined;
      const cp = parseInt(hex, 16);
      return ideographs.some(([lo, hi]) => lo <= cp && cp <= hi) ? cp : undefined;
    }
    return byName.get(asciiUpper(name));
  };
};
