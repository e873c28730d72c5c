// Python `re` patterns run by JavaScript's engine, for the grep retriever: the pattern is translated
// (py-regex-translate.ts) to a `v`-flag regular expression that matches what Python matches; a pattern Python
// would reject is reported as such, so the caller can fall back to a literal search as the reference does.
import { PyRegexError, PyRegexUnsupported, translateLiteral, translatePyRegex } from './py-regex-translate.ts';
import type { PyRegexOptions } from './py-regex-translate.ts';
import { loadCharacterNameLookup } from './unicode-name-table.ts';
import type { CharacterNameLookup } from './unicode-name-table.ts';

export { PyRegexError, PyRegexUnsupported };
export type { CharacterNameLookup, PyRegexOptions };

let characterNames: Promise<CharacterNameLookup> | undefined;

/** The texts of the name table's data files: the bundled ones, unless the runtime reads them its own way. */
let characterNameFiles = async (): Promise<readonly string[]> => (await import('./unicode-name-files.ts')).UNICODE_NAME_FILES;

/** Where the name table's data files come from, for a runtime that cannot import text (Node: the CLI). */
export const useCharacterNameFiles = (load: () => Promise<readonly string[]>): void => {
  characterNameFiles = load;
  characterNames = undefined;
};

/**
 * The Unicode name table `\N{name}` needs, when the pattern has one (else undefined). Loaded on first use only:
 * the table is large and almost no pattern names a character.
 */
export const loadCharacterNames = async (pattern: string): Promise<CharacterNameLookup | undefined> => {
  if (!pattern.includes('\\N')) return undefined;
  characterNames ??= characterNameFiles().then(loadCharacterNameLookup);
  return characterNames;
};

/** The translation of a pattern Python accepts; JavaScript refusing it means it cannot be expressed here. */
const compile = (source: string): RegExp => {
  try {
    return new RegExp(source, 'gv');
  } catch (err) {
    throw new PyRegexUnsupported(err instanceof Error ? err.message : String(err));
  }
};

/**
 * The global regular expression for a Python pattern, as `re.compile(pattern, flags)` would match.
 * @throws PyRegexError when Python would reject the pattern; PyRegexUnsupported when JavaScript cannot match as Python would.
 */
export const compilePyRegex = (pattern: string, options: PyRegexOptions): RegExp => compile(translatePyRegex(pattern, options));

/** `re.compile(re.escape(pattern))`: the pattern as literal text. */
export const compileLiteral = (text: string, options: { ignoreCase: boolean }): RegExp => compile(translateLiteral(text, options));

/** `len(pattern.findall(text))`: non-overlapping matches, empty ones included (the next search one character on). */
export const countMatches = (regex: RegExp, text: string): number => {
  let count = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    count++;
    if (match[0].length === 0) regex.lastIndex += (text.codePointAt(regex.lastIndex) ?? 0) > 0xffff ? 2 : 1;
  }
  return count;
};
