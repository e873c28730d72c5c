// Every gold action of the reference tasks that calls a credit-card discoverable tool (or unlocks one) replays
// as in the reference: the task's initial state is set, the earlier gold actions of other tools are applied
// as the DB changes the reference recorded for them, and each credit-card step's content, error flag and DB
// hash are compared.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parsePyJson, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { bankingData, bankingDbHash, bankingEnvironment } from './helpers.ts';

type Step =
  | { action_id: string; changes: Record<string, PyValue> }
  | { action_id: string; error: boolean; content_sha256: string; db_hash: string };

const fixture = parsePyJson(
  readFileSync(new URL('../../fixtures/banking-credit-card-gold-actions.json', import.meta.url), 'utf8'),
) as unknown as { task_id: string; steps: Step[] }[];

describe('credit-card gold actions replay as in the reference', () => {
  const title = "%s: the credit-card steps give the reference's texts, errors and DB hashes";
  it.each(fixture.map((t) => [t.task_id, t] as const))(title, async (taskId, { steps }) => {
    const task = (await bankingData()).tasks.find((t) => t.id === taskId)!;
    const actions = task.evaluation_criteria?.actions ?? [];
    const env = await bankingEnvironment();
    env.setState(task.initial_state?.initialization_data ?? null, task.initial_state?.initialization_actions ?? null, []);
    for (const step of steps) {
      if ('changes' in step) {
        env.setState({ agent_data: step.changes, user_data: null }, null, []);
        continue;
      }
      const action = actions.find((a) => a.action_id === step.action_id)!;
      const { name, arguments: args, requestor } = action;
      const msg = env.getResponse({ id: step.action_id, name, arguments: args, requestor });
      expect({
        action: step.action_id,
        error: msg.error,
        content_sha256: sha256Hex(msg.content ?? ''),
        db_hash: bankingDbHash(env),
      }).toEqual({ action: step.action_id, error: step.error, content_sha256: step.content_sha256, db_hash: step.db_hash });
    }
  });
});
