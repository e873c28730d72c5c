// The tools offered to the model, as the reference offers them (test/fixtures/banking-tool-schemas.json): the
// listed agent and user tools in order, discoverable tools never listed but callable, and their tags.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mutatesState, toolSchemas } from '../../../src/core/environment/toolkit.ts';
import { episodeDomain } from '../../../src/core/environment/episode-domain.ts';
import { loaded } from '../../support/domains.ts';

const expected = JSON.parse(readFileSync(new URL('../../fixtures/banking-tool-schemas.json', import.meta.url), 'utf8')) as {
  agent: unknown[];
  user: unknown[];
};
const { domain, data } = await loaded('banking_knowledge');

describe('banking_knowledge tool schemas', () => {
  it('lists the agent tools of a policy-only configuration as the reference does', () => {
    const view = episodeDomain(domain, data, data.tasks[0]!, { retrievalConfig: 'no_knowledge', retrievalConfigKwargs: null });
    // Compared as text: the request payload carries the schemas byte for byte, key order included.
    expect(JSON.stringify(toolSchemas(view.domain.agentToolkit))).toBe(JSON.stringify(expected.agent));
  });

  it('lists the user tools as the reference does', () => {
    expect(JSON.stringify(toolSchemas(domain.userToolkit!))).toBe(JSON.stringify(expected.user));
  });

  it('keeps discoverable tools out of the lists; they are in the toolkits, tagged as declared', () => {
    const agent = domain.agentToolkit.tools;
    expect(agent.open_bank_account_4821?.discoverable).toBe(true);
    expect(mutatesState(agent.open_bank_account_4821!)).toBe(true);
    expect(domain.userToolkit!.tools.get_card_last_4_digits?.type).toBe('read');
    expect(mutatesState(domain.userToolkit!.tools.get_card_last_4_digits!)).toBe(false);
    expect(mutatesState(agent.unlock_discoverable_agent_tool!)).toBe(true);
    expect(mutatesState(agent.give_discoverable_user_tool!)).toBe(true);
    expect(mutatesState(agent.list_discoverable_agent_tools!)).toBe(false);
  });
});
