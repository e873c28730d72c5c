// banking_knowledge tool parity: every test/fixtures/banking-tool-cases-*.json file holds tool calls made in
// sequence on a fresh environment, with the content and error flag the reference returned (or the SHA-256 of
// a long content) and the reference's DB hash afterwards.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { parsePyJson, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { ToolCall } from '../../../src/core/schemas/message.ts';
import { bankingDbHash, bankingEnvironment } from './helpers.ts';

interface ToolCase {
  name: string;
  calls: { name: string; arguments: Record<string, PyValue>; requestor?: 'assistant' | 'user' }[];
  results: { error: boolean; content?: string; content_sha256?: string }[];
  db_hash: string;
  /** Table updates applied first, as a task's `initialization_data.agent_data`. */
  init?: Record<string, PyValue>;
  allowlist?: string[];
}

const fixtures = new URL('../../fixtures/', import.meta.url);
const files = readdirSync(fixtures).filter((f) => f.startsWith('banking-tool-cases-') && f.endsWith('.json')).sort();

const call = (i: number, spec: ToolCase['calls'][number]): ToolCall => ({
  id: `c${i}`,
  name: spec.name,
  arguments: spec.arguments,
  requestor: spec.requestor ?? 'assistant',
});

describe.each(files)('%s: outputs, errors and DB hash as the reference', (file) => {
  const cases = parsePyJson(readFileSync(new URL(file, fixtures), 'utf8')) as unknown as ToolCase[];
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const env = await bankingEnvironment(c.allowlist);
    if (c.init) env.setState({ agent_data: c.init, user_data: null }, null, []);
    c.calls.forEach((spec, i) => {
      const msg = env.getResponse(call(i, spec));
      const expected = c.results[i]!;
      expect({ step: i, error: msg.error }).toEqual({ step: i, error: expected.error });
      if (expected.content !== undefined) expect(msg.content).toBe(expected.content);
      else expect(sha256Hex(msg.content ?? '')).toBe(expected.content_sha256);
    });
    expect(bankingDbHash(env)).toBe(c.db_hash);
  });
});
