// The grep retriever: documents ranked by how often a Python regular expression matches their content
// (case-insensitive unless asked otherwise); a pattern that does not compile is searched as literal text, and one
// Python compiles that this engine cannot evaluate as Python does is a tool error, never an empty answer.
import { DEFAULT_TOP_K, rankByScore } from './bm25.ts';
import type { KnowledgeDocument, RankedDocument } from './documents.ts';
import { isPyBlank } from './py-text.ts';
import { ToolError } from '../environment/errors.ts';
import { PyRegexError, PyRegexUnsupported, compileLiteral, compilePyRegex, countMatches } from './py-regex.ts';
import type { CharacterNameLookup } from './py-regex.ts';

export interface GrepOptions {
  readonly caseSensitive?: boolean;
}

export interface GrepIndex {
  /**
   * The `topK` documents with the most matches, ties in document order; documents without a match are left out.
   * `characterNames` (`loadCharacterNames`) resolves `\N{name}`; without it such a pattern is searched as text.
   */
  search(pattern: string, topK?: number, characterNames?: CharacterNameLookup): RankedDocument[];
}

const compile = (pattern: string, ignoreCase: boolean, characterNames: CharacterNameLookup | undefined): RegExp => {
  try {
    return compilePyRegex(pattern, { ignoreCase, characterNames });
  } catch (err) {
    if (err instanceof PyRegexError) return compileLiteral(pattern, { ignoreCase });
    if (err instanceof PyRegexUnsupported) throw new ToolError(`Cannot search for this pattern: ${err.message}. Rephrase it without that construct.`);
    throw err;
  }
};

export const createGrepIndex = (docs: readonly KnowledgeDocument[], options: GrepOptions = {}): GrepIndex => {
  const ignoreCase = !options.caseSensitive;
  return {
    search(pattern, topK = DEFAULT_TOP_K, characterNames) {
      if (isPyBlank(pattern)) return [];
      const regex = compile(pattern, ignoreCase, characterNames);
      const counts = docs.map((doc) => countMatches(regex, doc.content));
      return rankByScore(counts, docs.length)
        .filter((index) => counts[index]! > 0)
        .slice(0, Math.max(0, topK))
        .map((index) => ({ id: docs[index]!.id, score: counts[index]! }));
    },
  };
};
