// System prompts and scenario rendering, byte-exact with the reference.
import { describe, expect, it } from 'vitest';
import { agentSystemPrompt, funcFormat, gtSystemPrompt, soloSystemPrompt } from '../../../src/core/agents/prompts.ts';
import { userSystemPrompt } from '../../../src/core/user/user-simulator.ts';
import { renderUserScenario } from '../../../src/core/user/scenario.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import { loaded } from '../../support/domains.ts';

const mock = await loaded('mock');

describe('agent system prompts', () => {
  it('llm_agent: instructions then the policy verbatim, no trailing newline', () => {
    const prompt = agentSystemPrompt(mock.data.policy);
    expect(prompt.startsWith('<instructions>\nYou are a customer service agent that helps the user according to the <policy> provided below.\nIn each turn')).toBe(true);
    expect(prompt.endsWith('5. If the user asks for a compliment, compliment them\n</policy>')).toBe(true);
  });

  it('llm_agent_gt: numbered resolution steps with Python str() of the arguments', () => {
    const prompt = gtSystemPrompt('P', [
      { action_id: 'a', requestor: 'assistant', name: 'refuel_data', arguments: { customer_id: 'C1001', gb_amount: pyFloat(2) }, info: null, compare_args: null },
      { action_id: 'b', requestor: 'user', name: 'book', arguments: { flights: [{ flight_number: 'HAT136', date: '2024-05-20' }], ok: true }, info: null, compare_args: null },
    ]);
    expect(prompt.endsWith(
      '<resolution_steps>\n[Step 1] Perform the following action: refuel_data(customer_id=C1001, gb_amount=2.0).\n' +
        "[Step 2] Instruct the user to perform the following action: book(flights=[{'flight_number': 'HAT136', 'date': '2024-05-20'}], ok=True).\n" +
        '</resolution_steps>',
    )).toBe(true);
  });

  it('llm_agent_solo: the ticket closes the prompt', () => {
    expect(soloSystemPrompt('P', 'Fix it.').endsWith('</policy>\n<ticket>\nFix it.\n</ticket>')).toBe(true);
  });

  it('Action.get_func_format renders name(k=v)', () => {
    expect(funcFormat({ action_id: 'x', requestor: 'assistant', name: 'f', arguments: {}, info: null, compare_args: null })).toBe('f()');
  });
});

describe('user simulator prompt', () => {
  it('guidelines, a blank line, then the rendered scenario (reference B.4 tail)', () => {
    const task = mock.data.tasks.find((t) => t.id === 'create_task_1')!;
    const prompt = userSystemPrompt(mock.guidelines.withTools, task);
    expect(prompt.startsWith('# User Simulation Guidelines\n\nYou are playing the role of a customer contacting a customer service representative agent. \n')).toBe(true);
    expect(prompt).toContain('maintaining character consistency.\n\n\n<scenario>\nPersona:\n\tProfessional and direct communicator who writes in a clear and concise style\nInstructions:\n\tYou are a team member');
    expect(prompt.endsWith("Create a new task called 'Important Meeting' for user_1.\n</scenario>")).toBe(true);
  });

  it('structured instructions are indented with tabs, leaving blank lines untouched', () => {
    const rendered = renderUserScenario({
      persona: null,
      instructions: {
        domain: 'airline',
        reason_for_call: 'You want to cancel. \n\nMaybe later.',
        known_info: null,
        unknown_info: 'Your id',
        task_instructions: 'Be brief.',
      },
    });
    expect(rendered).toBe(
      'Instructions:\n\tDomain: airline\n\tReason for call:\n\t\tYou want to cancel. \n\n\t\tMaybe later.\n\tUnknown info:\n\t\tYour id\n\tTask instructions:\n\t\tBe brief.',
    );
  });
});
