// Scripted telecom conversations over HTTP (fake OpenAI-compatible server → AI SDK client → engine), where
// the agent's network tools and the user's phone tools interleave: the spec's verified B.4 run, a roaming
// fix that needs both sides, and the same task in the no-user (solo) and oracle-plan (gt) modes and under the
// workflow policy.
import { describe, expect, it } from 'vitest';
import { isAgent, isUserSimulator as isUser, text, toolCall } from '../../support/fake-openai.ts';
import type { CapturedRequest } from '../../support/fake-openai.ts';
import { scriptedProvider, scriptedSpec as spec } from '../../support/scripted.ts';
import { runSimulation } from '../../../src/core/runner/simulation.ts';
import type { SimulationDeps } from '../../../src/core/runner/simulation.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import type { LoadedDomain } from '../../../src/cli/data.ts';
import { loaded } from '../../support/domains.ts';
import { readDataFile } from '../../core/py/data-files.ts';
import { B4_TELECOM_LAST_USER_CALL_AFTER_SYSTEM } from '../../core/llm/reference-payloads.ts';

const scripted = scriptedProvider();
const { userSays, agentSays } = scripted;

const telecom = await loaded('telecom');
const task = (id: string): Task => telecom.data.tasks.find((t) => t.id === id)!;

const deps = (domain: LoadedDomain = telecom, overrides: Partial<SimulationDeps> = {}): SimulationDeps =>
  scripted.deps(domain, overrides);

interface ChatBody {
  messages: { role: string; content: string | null; tool_calls?: { function: { name: string } }[] | null }[];
  tools?: { function: { name: string } }[];
  tool_choice?: string;
}
const body = (r: CapturedRequest) => r.body as ChatBody;
const requestsOf = (matcher: (r: CapturedRequest) => boolean) => scripted.fake.requests.filter(matcher).map(body);
const toolNames = (b: ChatBody) => (b.tools ?? []).map((t) => t.function.name);
const calledTools = (b: ChatBody) => b.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name));

const file = (name: string) => readDataFile(`domains/telecom/${name}`);
const policy = (main: string, tech: string) =>
  `<main_policy>\n${file(main)}\n</main_policy>\n<tech_support_policy>\n${file(tech)}\n</tech_support_policy>`;

const AGENT_TOOLS = telecom.domain.agentToolkit.tools;
const USER_TOOLS = telecom.domain.userToolkit!.tools;

describe('the verified B.4 run: [service_issue]airplane_mode_on[PERSONA:None]', () => {
  const script = () => {
    userSays(
      text('My phone shows No Service.'),
      toolCall('toggle_airplane_mode', '{}', 'call_u1'),
      toolCall('check_status_bar', '{}', 'call_u2'),
      text('Done, I have signal now. ###STOP###'),
    );
    agentSays(text('Please toggle airplane mode off.'));
  };

  it('reproduces the trajectory, the user simulator request and the reward', async () => {
    script();
    const sim = await runSimulation(spec(task('[service_issue]airplane_mode_on[PERSONA:None]')), deps());
    const bar = 'Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%';
    expect(
      sim.messages!.map((m) => [m.turn_idx, m.role, m.content, 'tool_calls' in m ? (m.tool_calls ?? []).map((c) => [c.name, c.requestor]) : [], m.role === 'tool' ? m.requestor : null]),
    ).toEqual([
      [0, 'assistant', 'Hi! How can I help you today?', [], null],
      [1, 'user', 'My phone shows No Service.', [], null],
      [2, 'assistant', 'Please toggle airplane mode off.', [], null],
      [3, 'user', null, [['toggle_airplane_mode', 'user']], null],
      [4, 'tool', `Airplane Mode is now OFF.\n${bar}`, [], 'user'],
      [5, 'user', null, [['check_status_bar', 'user']], null],
      [6, 'tool', bar, [], 'user'],
      [7, 'user', 'Done, I have signal now. ###STOP###', [], null],
    ]);
    expect([sim.termination_reason, sim.reward_info!.reward.value]).toEqual(['user_stop', 1]);
    const info = sim.reward_info!;
    expect(info.reward_basis).toEqual(['ENV_ASSERTION']);
    expect(info.env_assertions!.map((a) => [a.env_assertion.func_name, a.env_assertion.arguments, a.met])).toEqual([
      ['assert_service_status', { expected_status: 'connected' }, true],
      ['assert_no_overdue_bill', { overdue_bill_id: 'B1234321' }, true],
    ]);
    expect(info.action_checks!.map((c) => [c.action.name, c.action.requestor, c.action_match, c.tool_type])).toEqual([
      ['toggle_airplane_mode', 'user', true, 'write'],
    ]);
    expect(info.db_check!.db_match).toBe(true);

    const userRequests = requestsOf(isUser);
    expect(userRequests.at(-1)!.messages.slice(1)).toEqual(B4_TELECOM_LAST_USER_CALL_AFTER_SYSTEM);
    // The user holds the 30 phone tools; the agent holds the 13 network tools and never sees the phone.
    expect(toolNames(userRequests[0]!)).toEqual(Object.keys(USER_TOOLS));
    const agentRequests = requestsOf(isAgent);
    expect(toolNames(agentRequests[0]!)).toEqual(Object.keys(AGENT_TOOLS));
    expect(agentRequests[0]!.messages[0]!.content).toContain(`<policy>\n${policy('main_policy.md', 'tech_support_manual.md')}\n</policy>`);
  });

  it.each([
    [3, 'max_steps'],
    [6, 'max_steps'],
    [7, 'max_steps'],
    [8, 'user_stop'],
  ])('max_steps=%i ends with %s (a stop in the step that reaches the limit is overridden)', async (maxSteps, reason) => {
    script();
    const sim = await runSimulation(spec(task('[service_issue]airplane_mode_on[PERSONA:None]'), { maxSteps }), deps());
    expect(sim.termination_reason).toBe(reason);
  });
});

const ROAMING = '[mobile_data_issue]user_abroad_roaming_disabled_off[PERSONA:Hard]';
const C1001_LOOKUP = '{"phone_number": "555-123-2002"}';
const L1002 = '{"customer_id": "C1001", "line_id": "L1002"}';

describe('both sides act: roaming abroad needs the line allowance (agent) and the phone setting (user)', () => {
  it('agent and user tool calls interleave; each side only sees its own calls; the fix scores 1.0', async () => {
    userSays(
      text("I'm in France and my mobile data does not work. My number is 555-123-2002."),
      toolCall('run_speed_test', '{}', 'u_speed1'),
      text('The speed test says: No Connection.'),
      toolCall('toggle_roaming', '{}', 'u_roam'),
      toolCall('run_speed_test', '{}', 'u_speed2'),
      text('It works now, 275 Mbps. Thanks! ###STOP###'),
    );
    agentSays(
      toolCall('get_customer_by_phone', C1001_LOOKUP, 'a_lookup'),
      toolCall('get_details_by_id', '{"id": "L1002"}', 'a_line'),
      text('Thanks John. Could you run a speed test on your phone?'),
      toolCall('enable_roaming', L1002, 'a_roam'),
      text('I enabled roaming on your line. Please also turn on data roaming on your phone and test again.'),
    );
    const sim = await runSimulation(spec(task(ROAMING)), deps());
    const tools = sim.messages!.filter((m) => m.role === 'tool').map((m) => [m.id, m.requestor, m.content]);
    expect(tools).toEqual([
      ['a_lookup', 'assistant', expect.stringContaining('"customer_id": "C1001"')],
      ['a_line', 'assistant', expect.stringContaining('"roaming_enabled": false')],
      ['u_speed1', 'user', 'Speed test failed: No Connection.'],
      ['a_roam', 'assistant', 'Roaming enabled successfully'],
      ['u_roam', 'user', 'Data Roaming is now ON.\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%'],
      ['u_speed2', 'user', 'Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast.'],
    ]);
    expect([sim.termination_reason, sim.reward_info!.reward.value]).toEqual(['user_stop', 1]);
    expect(sim.reward_info!.env_assertions!.every((a) => a.met)).toBe(true);

    for (const request of requestsOf(isAgent)) expect(calledTools(request).every((n) => n in AGENT_TOOLS)).toBe(true);
    for (const request of requestsOf(isUser)) expect(calledTools(request).every((n) => n in USER_TOOLS)).toBe(true);
    expect(calledTools(requestsOf(isAgent).at(-1)!)).toEqual(['get_customer_by_phone', 'get_details_by_id', 'enable_roaming']);
    expect(calledTools(requestsOf(isUser).at(-1)!)).toEqual(['run_speed_test', 'toggle_roaming', 'run_speed_test']);
  });

  it('fixing only the phone leaves data off abroad: the env assertions fail and the reward is 0', async () => {
    userSays(
      text("I'm abroad and my data does not work."),
      toolCall('toggle_roaming', '{}', 'u_roam'),
      toolCall('run_speed_test', '{}', 'u_speed'),
      text('Still nothing. ###STOP###'),
    );
    agentSays(text('Please turn on data roaming on your phone.'));
    const sim = await runSimulation(spec(task(ROAMING)), deps());
    expect(sim.messages!.find((m) => m.role === 'tool' && m.id === 'u_speed')!.content).toBe('Speed test failed: No Connection.');
    expect(sim.reward_info!.reward.value).toBe(0);
    expect(sim.reward_info!.env_assertions!.map((a) => a.met)).toEqual([false, false]);
  });

  it('a user calling a network tool, or the agent a phone tool, gets "not found" (requestors are isolated)', async () => {
    userSays(toolCall('enable_roaming', L1002, 'u_bad'), text('Hmm. ###STOP###'));
    const sim = await runSimulation(spec(task(ROAMING)), deps());
    expect(sim.messages!.filter((m) => m.role === 'tool').map((m) => [m.id, m.error, m.content])).toEqual([
      ['u_bad', true, "Error: Tool 'enable_roaming' not found."],
    ]);
    userSays(text('Data is broken.'), text('Ok. ###STOP###'));
    agentSays(toolCall('toggle_roaming', '{}', 'a_bad'), text('Sorry about that.'));
    const second = await runSimulation(spec(task(ROAMING)), deps());
    expect(second.messages!.filter((m) => m.role === 'tool').map((m) => [m.id, m.error, m.content])).toEqual([
      ['a_bad', true, "Error: Tool 'toggle_roaming' not found."],
    ]);
    expect(scripted.fake.pending()).toBe(0);
  });
});

describe('modes on the same task', () => {
  it('no user (llm_agent_solo): the agent holds both toolkits plus done, works from the ticket under the solo policy', async () => {
    agentSays(
      toolCall('enable_roaming', L1002, 's1'),
      toolCall('toggle_roaming', '{}', 's2'),
      toolCall('run_speed_test', '{}', 's3'),
      toolCall('done', '{}', 's4'),
    );
    const t = task(ROAMING);
    const sim = await runSimulation(spec(t, { agent: 'llm_agent_solo' }), deps(telecom, { userModel: null }));
    expect([sim.termination_reason, sim.reward_info!.reward.value]).toEqual(['agent_stop', 1]);
    expect(sim.messages!.filter((m) => m.role === 'tool').map((m) => [m.requestor, m.content])).toEqual([
      ['assistant', 'Roaming enabled successfully'],
      ['assistant', 'Data Roaming is now ON.\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%'],
      ['assistant', 'Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast.'],
    ]);
    const first = requestsOf(isAgent)[0]!;
    expect(first.tool_choice).toBe('required');
    expect(toolNames(first)).toEqual([...Object.keys(AGENT_TOOLS), ...Object.keys(USER_TOOLS), 'done']);
    expect(first.messages[0]!.content).toContain(
      `<policy>\n${policy('main_policy_solo.md', 'tech_support_manual.md')}\n</policy>\n<ticket>\n${t.ticket}\n</ticket>`,
    );
    // The agent speaks first: no greeting, no user turn.
    expect(first.messages.slice(1)).toEqual([]);
  });

  it('oracle plan (llm_agent_gt): the resolution steps name who performs each gold action', async () => {
    userSays(text('My data does not work abroad.'), toolCall('toggle_roaming', '{}', 'u1'), text('Working now. ###STOP###'));
    agentSays(toolCall('enable_roaming', L1002, 'a1'), text('Please turn on data roaming on your phone.'));
    const sim = await runSimulation(spec(task(ROAMING), { agent: 'llm_agent_gt' }), deps());
    expect(sim.reward_info!.reward.value).toBe(1);
    expect(requestsOf(isAgent)[0]!.messages[0]!.content).toContain(
      `<policy>\n${policy('main_policy.md', 'tech_support_manual.md')}\n</policy>\n<resolution_steps>\n` +
        '[Step 1] Perform the following action: enable_roaming(customer_id=C1001, line_id=L1002).\n' +
        '[Step 2] Instruct the user to perform the following action: toggle_roaming().\n</resolution_steps>',
    );
  });

  it('telecom-workflow: the tech-support workflow policy (and its solo variant) replace the manual', async () => {
    const workflow = await loaded('telecom-workflow');
    userSays(text('No data abroad.'), text('Ok. ###STOP###'));
    agentSays(text('Let me check.'));
    const sim = await runSimulation(spec(task(ROAMING)), deps(workflow));
    expect(requestsOf(isAgent)[0]!.messages[0]!.content).toContain(
      `<policy>\n${policy('main_policy.md', 'tech_support_workflow.md')}\n</policy>`,
    );
    expect(workflow.data.soloPolicy).toBe(policy('main_policy_solo.md', 'tech_support_workflow_solo.md'));
    expect(telecom.data.soloPolicy).toBe(policy('main_policy_solo.md', 'tech_support_manual.md'));
    expect(sim.reward_info!.reward.value).toBe(0);
  });
});
