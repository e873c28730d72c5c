// banking_knowledge's grep inside the local Worker (workerd): a pattern naming a character with `\N{name}`
// loads the Unicode name table the Worker's bundle carries as text (its own path: the bundled files, where
// the CLI reads them from the installed package), and matches what the same pattern written out matches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness(mockConversation());
}, 180_000);
afterAll(() => harness?.close());

/** The text grep answers for `pattern`, as the agent's tool call in a new grep_only episode. */
const grep = async (pattern: string): Promise<string> => {
  const client = harness.client();
  const { episode_id } = await client.createEpisode({ domain: 'banking_knowledge', task_id: 'task_005', llm_user: 'fake-user', retrieval_config: 'grep_only' });
  const call = { id: 'call_grep', type: 'function' as const, function: { name: 'grep', arguments: JSON.stringify({ pattern }) } };
  const answer = await client.step(episode_id, 0, { role: 'assistant', content: null, tool_calls: [call] });
  const tool = answer.observation.messages.find((m) => m['role'] === 'tool');
  return String(tool?.['content']);
};

describe('grep in the local Worker', () => {
  it('\\N{name} names a character as Python does: the same documents as the pattern written out', async () => {
    const written = await grep('annual fee');
    expect(written).toMatch(/^1\. /);
    expect(await grep('\\N{LATIN SMALL LETTER A}nnual\\N{SPACE}fee')).toBe(written);
    // A name Python does not know makes the pattern one Python rejects: grep falls back to the literal text, found nowhere.
    expect(await grep('\\N{NO SUCH CHARACTER}nnual fee')).not.toBe(written);
  }, 120_000);
});
