// banking_knowledge tool parity on the tasks' own worlds: every test/fixtures/banking-task-state-cases-*.json file
// holds tool calls made in sequence after a task's initial state (cards with alerts, blocks and limits the
// released DB lacks), with what the reference returned for each (the content, or the SHA-256 of a content over
// 2,000 characters, and the error flag) and its DB hash afterwards.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { parsePyJson, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { bankingData, bankingDbHash, bankingEnvironment } from './helpers.ts';

type Outcome = { error: boolean; content: string } | { error: boolean; content_sha256: string };

interface TaskStateCase {
  readonly name: string;
  readonly task_id: string;
  readonly calls: readonly { name: string; arguments: Record<string, PyValue> }[];
  readonly results: readonly Outcome[];
  readonly db_hash: string;
}

const fixtureDir = new URL('../../fixtures/', import.meta.url);
const caseFiles = readdirSync(fixtureDir).filter((f) => /^banking-task-state-cases-.*\.json$/.test(f));

/** What the model would see of a tool message, in the form the fixture records it. */
const outcome = (content: string, error: boolean, like: Outcome): Outcome =>
  'content' in like ? { error, content } : { error, content_sha256: sha256Hex(content) };

describe.each(caseFiles.sort())('%s: as the reference, from the task initial state', (file) => {
  const cases = parsePyJson(readFileSync(new URL(file, fixtureDir), 'utf8')) as unknown as TaskStateCase[];
  it.each(cases.map((c) => [`${c.task_id}: ${c.name}`, c] as const))('%s', async (_, c) => {
    const task = (await bankingData()).tasks.find((t) => t.id === c.task_id);
    if (!task) throw new Error(`no task ${c.task_id} in the fetched data`);
    const env = await bankingEnvironment();
    env.setState(task.initial_state?.initialization_data ?? null, task.initial_state?.initialization_actions ?? null, []);
    const seen = c.calls.map(({ name, arguments: args }, i) => {
      const msg = env.getResponse({ id: `c${i}`, name, arguments: args, requestor: 'assistant' });
      return outcome(msg.content ?? '', msg.error, c.results[i]!);
    });
    expect(seen).toEqual(c.results);
    expect(bankingDbHash(env)).toBe(c.db_hash);
  });
});
