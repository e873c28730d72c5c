// Credit-card tools on records the released DB lacks (the scanned ATM deposits, cards without a status,
// accounts in bad standing, payment histories with late and undated payments): the fixture's seed is applied
// as a task's initialization data, then each case's calls; contents, error flags and DB hash as the reference.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parsePyJson, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { InitializationData } from '../../../src/core/schemas/task.ts';
import { bankingDbHash, bankingEnvironment } from './helpers.ts';

interface SeededCases {
  initialization_data: InitializationData;
  cases: {
    name: string;
    calls: { name: string; arguments: Record<string, PyValue> }[];
    results: { error: boolean; content?: string; content_sha256?: string }[];
    db_hash: string;
  }[];
}

const fixture = parsePyJson(
  readFileSync(new URL('../../fixtures/banking-credit-card-seeded-cases.json', import.meta.url), 'utf8'),
) as unknown as SeededCases;

describe('credit-card tools on seeded records: outputs, errors and DB hash as the reference', () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const env = await bankingEnvironment();
    env.setState(fixture.initialization_data, null, []);
    const seen = c.calls.map((call, i) => {
      const msg = env.getResponse({ id: `c${i}`, requestor: 'assistant', ...call });
      const content = msg.content ?? '';
      return { error: msg.error, ...(content.length > 2000 ? { content_sha256: sha256Hex(content) } : { content }) };
    });
    expect(seen).toEqual(c.results);
    expect(bankingDbHash(env)).toBe(c.db_hash);
  });
});
