// grep rankings and outputs against the reference's pipeline, and the Python-regex translation they rely on.
import { describe, expect, it } from 'vitest';
import { documentLookup } from '../../../src/core/knowledge/documents.ts';
import { createGrepIndex } from '../../../src/core/knowledge/grep.ts';
import { runGrep } from '../../../src/core/knowledge/kb-search.ts';
import { PyRegexError, compilePyRegex, countMatches, loadCharacterNames } from '../../../src/core/knowledge/py-regex.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';
import { knowledgeDocuments, retrievalFixture } from '../../support/knowledge.ts';
import pythonSyntax from '../../fixtures/knowledge-grep-python-syntax.json' with { type: 'json' };

const docs = await knowledgeDocuments();
const fixture = await retrievalFixture();
const grep = createGrepIndex(docs);

describe('grep retriever over the 698 documents', () => {
  for (const { pattern, results } of fixture.grep) {
    it(`ranks ${JSON.stringify(pattern)} as the reference does`, () => {
      expect(grep.search(pattern).map((r) => [r.id, r.score])).toEqual(results);
    });
  }

  it('is case-sensitive when asked', () => {
    const sensitive = createGrepIndex(docs, { caseSensitive: true });
    const upper = sensitive.search('Annual Fee');
    const lower = grep.search('Annual Fee');
    expect(upper.length === 0 || upper[0]!.score < lower[0]!.score).toBe(true);
  });

  for (const c of fixture.grep_formatted) {
    it(`formats the grep output for ${JSON.stringify(c.pattern)} byte for byte`, async () => {
      const text = await runGrep(grep, documentLookup(docs), c.pattern);
      if (c.output !== undefined) expect(text).toBe(c.output);
      else {
        expect(text.length).toBe(c.output_length);
        expect(sha256Hex(text)).toBe(c.output_sha256);
      }
    });
  }
});

describe("grep on Python-only regex syntax, as the reference's GrepRetriever ranks (Python 3.11 re)", () => {
  const sensitive = createGrepIndex(docs, { caseSensitive: true });
  for (const c of pythonSyntax.grep) {
    const label = `${JSON.stringify(c.pattern)}${'case_sensitive' in c ? ' (case-sensitive)' : ''}`;
    it(`${label}: ${c.python_compiles ? 'compiles' : 'is refused, then searched as literal text'} and ranks as the reference`, async () => {
      const ignoreCase = !('case_sensitive' in c);
      const characterNames = await loadCharacterNames(c.pattern);
      if (c.python_compiles) expect(() => compilePyRegex(c.pattern, { ignoreCase, characterNames })).not.toThrow();
      else expect(() => compilePyRegex(c.pattern, { ignoreCase, characterNames })).toThrow(PyRegexError);
      expect((ignoreCase ? grep : sensitive).search(c.pattern, undefined, characterNames).map((r) => [r.id, r.score])).toEqual(c.results);
    });
  }
});

describe('Python regex translation', () => {
  const count = (pattern: string, text: string, ignoreCase = false) =>
    countMatches(compilePyRegex(pattern, { ignoreCase }), text);

  it('reads Python-only syntax', () => {
    expect(count('(?i)fee', 'Fee FEE fee')).toBe(3);
    expect(count('(?P<x>ab)(?P=x)', 'abab ab')).toBe(1);
    expect(count('a{,2}b', 'aab b')).toBe(2);
    expect(count('\\Afee', 'fee fee')).toBe(1);
    expect(count('fee\\Z', 'fee fee\n')).toBe(0);
    expect(count('fee$', 'fee fee\n')).toBe(1);
    expect(count('[]a]', 'a]')).toBe(2);
    expect(count('(?<=a)b(?<!c)', 'ab cb')).toBe(1);
  });

  it('counts empty matches as findall does', () => {
    expect(count('x*', 'ab')).toBe(3);
  });

  it('reads \\N{name} as unicodedata.lookup does (counts from python3 3.11 re.findall)', async () => {
    const named = async (pattern: string, text: string, ignoreCase = false) =>
      countMatches(compilePyRegex(pattern, { ignoreCase, characterNames: await loadCharacterNames(pattern) }), text);
    expect(await named('\\N{HANGUL SYLLABLE GAG}', '\uac01\uac00')).toBe(1);
    expect(await named('\\N{HANGUL SYLLABLE A}', '\uc544')).toBe(1);
    expect(await named('\\N{CJK UNIFIED IDEOGRAPH-04E00}+', '\u4e00\u4e00x')).toBe(1);
    expect(await named('\\N{CJK UNIFIED IDEOGRAPH-20000}', '\u{20000}')).toBe(1);
    expect(await named('[\\N{HANGUL SYLLABLE GA}-\\N{HANGUL SYLLABLE GAH}]', '\uac00\uac1b\uac1c')).toBe(2);
    expect(await named('\\N{latin capital letter gha}', '\u01a2\u01a3')).toBe(1);
    expect(await named('\\N{latin capital letter gha}', '\u01a2\u01a3', true)).toBe(2);
    expect(await named('\\N{BYTE ORDER MARK}', '\ufeff')).toBe(1);
  });

  it('refuses \\N{name} without the name table', () => {
    expect(() => compilePyRegex('\\N{LATIN SMALL LETTER A}', { ignoreCase: false })).toThrow(PyRegexError);
  });

  it('rejects what Python rejects', () => {
    for (const bad of ['\\q', '[abc', 'a\\', '(?<n>a)']) {
      expect(() => compilePyRegex(bad, { ignoreCase: true }), bad).toThrow(PyRegexError);
    }
  });
});
