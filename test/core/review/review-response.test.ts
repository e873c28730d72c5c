// The reviewer model's answers read as the reference reads them: the same reviews, and the same failure texts
// (which a review records), on the answers of test/fixtures/review-responses.json.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dumpsPy } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { extractJson, parseAuthentication, parseReview, parseUserOnlyReview } from '../../../src/core/review/review-response.ts';

type Outcome = { ok: unknown } | { error: string };
interface Case {
  input: string;
  extract: string;
  review: Outcome;
  user: Outcome;
  auth: Outcome;
}
const cases = JSON.parse(await readFile(new URL('../../fixtures/review-responses.json', import.meta.url), 'utf8')) as Case[];

/** What the parser gives, as the reference's model_dump() or its exception text. */
const outcome = (parse: () => unknown): Outcome => {
  try {
    return { ok: JSON.parse(dumpsPy(parse() as PyValue)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

describe.each(cases.map((c) => [c.input, c] as const))('answer %j', (_, c) => {
  it('extracts the same JSON text', () => expect(extractJson(c.input)).toBe(c.extract));
  it('gives the same full review or failure', () => expect(outcome(() => parseReview(c.input, 0.5))).toEqual(c.review));
  it('gives the same user-only review or failure', () => expect(outcome(() => parseUserOnlyReview(c.input, 0.5))).toEqual(c.user));
  it('gives the same authentication verdict', () => expect(outcome(() => parseAuthentication(c.input, 0.5))).toEqual(c.auth));
});
