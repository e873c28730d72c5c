// The trajectory page sets the user's own tool calls and their results (telecom's device tools) apart from the
// agent's, and explains each failed check.
import { describe, expect, it } from 'vitest';
import { trajectoryPage } from '../../src/viewer/pages/trajectory.ts';
import { SimulationRunSchema } from '../../src/core/schemas/simulation.ts';
import { infraError } from '../support/simulations.ts';

const ctx = { nonce: 'n', csrfToken: null, signedIn: false, canAct: false };

const simulation = SimulationRunSchema.parse({
  id: 'sim-1',
  task_id: '[mobile_data_issue]airplane_mode_on[PERSONA:None]',
  timestamp: '2026-01-01T00:00:00',
  start_time: '2026-01-01T00:00:00',
  end_time: '2026-01-01T00:01:00',
  duration: 60,
  termination_reason: 'user_stop',
  trial: 0,
  reward_info: {
    reward: 0,
    reward_basis: ['ENV_ASSERTION', 'ACTION'],
    env_assertions: [{ env_assertion: { env_type: 'user', func_name: 'assert_mobile_data_working', arguments: {}, assert_value: true }, met: false, reward: 0 }],
    action_checks: [{ action: { action_id: 'a1', requestor: 'user', name: 'toggle_airplane_mode', arguments: {} }, action_match: true, action_reward: 1 }],
  },
  messages: [
    { role: 'assistant', content: 'Please turn airplane mode off.', tool_calls: null },
    { role: 'user', content: null, tool_calls: [{ id: 'u1', name: 'toggle_airplane_mode', arguments: {}, requestor: 'user' }] },
    { role: 'tool', id: 'u1', content: 'Airplane mode is now OFF.', requestor: 'user' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'a1', name: 'get_customer_by_phone', arguments: { phone_number: '555' } }] },
    { role: 'tool', id: 'a1', content: 'Error: customer not found', requestor: 'assistant', error: true },
  ],
});

describe('trajectory page', () => {
  it("sets the user's tool calls and results apart from the agent's", async () => {
    const page = String(await trajectoryPage(ctx, simulation, null, { error: 'no data' }));
    expect(page.match(/<li class="user-tool" data-role="user-tool">/g)).toHaveLength(1);
    expect(page).toMatch(/<li class="user-tool" data-role="user-tool">\s*<span class="role">user tool result<\/span> <code>toggle_airplane_mode<\/code>/);
    expect(page).toMatch(/<li class="tool error" data-role="tool">\s*<span class="role">tool result<\/span> <code>get_customer_by_phone<\/code> <span class="bad">error<\/span>/);
    expect(page).toContain('<div class="tool-call" data-requestor="user"><span class="muted">calls</span> <code>toggle_airplane_mode</code>');
  });

  it('explains the failed environment assertion and the met action', async () => {
    const page = String(await trajectoryPage(ctx, simulation, null, { error: 'no data' }));
    expect(page).toMatch(/<tr data-met="false"><td class="wraps"><code>user\.assert_mobile_data_working<\/code>/);
    expect(page).toMatch(/<tr data-met="true"><td><code>toggle_airplane_mode<\/code><\/td><td>user<\/td>/);
    expect(page).toContain('The final DB cannot be compared here: no data');
  });

  it('an infrastructure error shows its error and is not presented as graded, nor its DB compared', async () => {
    const sim = infraError('create_task_1', 'Incorrect API key provided: sk-***');
    const page = String(await trajectoryPage(ctx, sim, 'run-1', null));
    expect(page).toMatch(/<p class="error-box" role="alert" id="infra-error"><b>ProviderError<\/b>: Incorrect API key provided: sk-\*\*\*<\/p>/);
    expect(page).toContain('after 4 attempts');
    expect(page).not.toContain('id="db-diff"');
    expect(page).not.toContain('data-field="reward"');
  });

  it('indents a JSON tool result that reads back exactly, shows any other as written, and folds a long one', async () => {
    const withResults = (content: string) =>
      SimulationRunSchema.parse({ ...simulation, messages: [{ role: 'tool', id: 'a1', content, requestor: 'assistant' }] });
    const short = String(await trajectoryPage(ctx, withResults('{"id": 1234, "price": 1.1, "name": "Zoë", "tags": ["a"]}'), null, null));
    expect(short).toContain('<details class="result" open><summary>8 lines, 56 characters</summary><pre>{\n  &quot;id&quot;: 1234,\n  &quot;price&quot;: 1.1,\n  &quot;name&quot;: &quot;Zoë&quot;,');
    // Not read back exactly (a 20-digit int, 1.10): shown as written.
    const exact = '{"id": 12345678901234567890, "price": 1.10}';
    expect(String(await trajectoryPage(ctx, withResults(exact), null, null))).toContain(`<pre>${exact.replaceAll('"', '&quot;')}</pre>`);
    const long = String(await trajectoryPage(ctx, withResults(`{"rows": [${Array.from({ length: 80 }, (_, i) => `{"i": ${i}}`).join(', ')}]}`), null, null));
    expect(long).toMatch(/<details class="result"><summary>\d+ lines/);
    const plain = String(await trajectoryPage(ctx, withResults('Airplane mode is now OFF.'), null, null));
    expect(plain).toContain('<pre>Airplane mode is now OFF.</pre>');
  });

  it('shows the cost of its calls by role as it recorded them; an unpriced model is named, a reference record shows none', async () => {
    const role = (calls: number, cost: number, unpriced: string[] = []) => ({
      calls, prompt_tokens: 10 * calls, completion_tokens: calls, reasoning_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost, unpriced_models: unpriced,
    });
    const usage = { agent: role(2, 0.0042), user: role(2, 0, ['ollama_chat/local']), judge: role(1, 0.001), retrieval: role(0, 0), review: role(0, 0) };
    const page = String(await trajectoryPage(ctx, { ...simulation, info: { usage } }, null, { error: 'no data' }));
    expect(page).toContain(
      '<p id="cost-by-role">cost by role: <span data-role="agent">agent $0.0042</span>, <span data-role="user">user unpriced (ollama_chat/local)</span>, <span data-role="judge">judge $0.0010</span></p>',
    );
    expect(String(await trajectoryPage(ctx, simulation, null, { error: 'no data' }))).not.toContain('cost-by-role');
  });
});
