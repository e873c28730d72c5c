// Python's conditional groups `(?(group)yes|no)` in the grep retriever: counted and ranked as Python's `re`
// does, refused where Python refuses them (then searched as text, as the reference does), and answered with a
// tool error, never "No matches found", where this engine cannot evaluate them as Python would. Every expected
// value comes from python3's `re`: test/fixtures/knowledge-grep-conditionals.py wrote the fixture.
import { describe, expect, it } from 'vitest';
import { documentLookup } from '../../../src/core/knowledge/documents.ts';
import { createGrepIndex } from '../../../src/core/knowledge/grep.ts';
import { runGrep } from '../../../src/core/knowledge/kb-search.ts';
import { PyRegexError, PyRegexUnsupported, compileLiteral, compilePyRegex, countMatches } from '../../../src/core/knowledge/py-regex.ts';
import { ToolError } from '../../../src/core/environment/errors.ts';
import { knowledgeDocuments } from '../../support/knowledge.ts';
import expected from '../../fixtures/knowledge-grep-conditionals.json' with { type: 'json' };

const docs = await knowledgeDocuments();
const grep = createGrepIndex(docs);
const count = (pattern: string, text: string): number => countMatches(compilePyRegex(pattern, { ignoreCase: false }), text);

describe(`conditional groups, as Python ${expected.python}'s re reads them`, () => {
  it.each(expected.counts)('$pattern finds $count matches in $text', ({ pattern, text, count: n }) => {
    expect(count(pattern, text)).toBe(n);
  });

  it('the issue\'s example (a)?(?(1)b|c) matches where the grep used to find nothing', async () => {
    const text = await runGrep(grep, documentLookup(docs), '(a)?(?(1)b|c)');
    expect(text).not.toContain('No matches found');
  });

  it.each(expected.refused)('$pattern is refused as Python refuses it, then searched as text', ({ pattern, compiles }) => {
    expect(compiles).toBe(false);
    expect(() => compilePyRegex(pattern, { ignoreCase: true })).toThrow(PyRegexError);
    const literal = compileLiteral(pattern, { ignoreCase: true });
    expect(grep.search(pattern).map((r) => r.score)).toEqual(docs.map((d) => countMatches(literal, d.content)).filter((n) => n > 0).sort((a, b) => b - a).slice(0, 10));
  });

  it.each(expected.unsupported)('$pattern, which Python accepts, is a tool error naming the construct, never an empty answer', async ({ pattern, compiles }) => {
    expect(compiles).toBe(true);
    expect(() => compilePyRegex(pattern, { ignoreCase: true })).toThrow(PyRegexUnsupported);
    const answer = runGrep(grep, documentLookup(docs), pattern);
    await expect(answer).rejects.toThrow(ToolError);
    await expect(answer).rejects.toThrow(/^Cannot search for this pattern: .*conditional/);
  });

  it.each(expected.ranked)('ranks $pattern over the 698 documents as the reference does', ({ pattern, results }) => {
    expect(results.length).toBeGreaterThan(0);
    expect(grep.search(pattern).map((r) => [r.id, r.score])).toEqual(results);
  });
});
