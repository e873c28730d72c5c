// Turning a composed issue into a task: the world is broken by the init calls, the gold actions fix it (or
// the agent must transfer), and the family's assertions check the final state
// (reference: TaskManager.create_task in src/tau2/domains/telecom/tasks/manager.py).
import { toNumber } from '../../../src/core/py/index.ts';
import type { PyNumber } from '../../../src/core/py/index.ts';
import type { Action, EnvFunctionCall, Task } from '../../../src/core/schemas/task.ts';
import type { ComposedIssue } from './compose.ts';
import type { IssueFamily } from './family.ts';
import { isAssertion, setUserInfo, subscriber } from './issue.ts';
import type { BrokenWorld, FixCall } from './issue.ts';
import { formatTaskId } from './task-id.ts';
import type { Persona } from './user-texts.ts';

/** A task with the key set of the released telecom files (the task model before `issues` and friends). */
export type GeneratedTask = Omit<Task, 'issues' | 'required_documents' | 'user_tools'>;

/** The part of the world's state after the init calls that task texts and assertions read. */
const brokenWorld = (init: readonly EnvFunctionCall[]): BrokenWorld => {
  const moves = init.filter((c) => c.func_name === 'set_user_location');
  const refuels = init.filter((c) => c.func_name === 'refuel_data');
  return {
    abroad: moves.at(-1)?.arguments.abroad === true,
    dataRefuelingGb: refuels.reduce<number>(
      (gb, call) => gb + toNumber(call.arguments.gb_amount as PyNumber),
      subscriber.dataRefuelingGb,
    ),
  };
};

const transfer = (): Action => ({
  action_id: 'transfer_to_human_agents',
  requestor: 'assistant',
  name: 'transfer_to_human_agents',
  arguments: { summary: 'I cannot fix the issue.' },
  info: null,
  compare_args: [],
});

/** Gold actions are numbered across the whole composed task: `toggle_data_0`, `reboot_device_1`, … */
const goldActions = (fixes: readonly FixCall[]): Action[] =>
  fixes.map((call, i) => ({
    action_id: `${call.name}_${i}`,
    requestor: call.requestor,
    name: call.name,
    arguments: { ...call.arguments },
    info: null,
    compare_args: null,
  }));

/** Python `str.format` over the templates' named fields. */
const fill = (template: string, fields: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = fields[key];
    if (value === undefined) throw new Error(`Template field {${key}} has no value`);
    return value;
  });

export const buildTask = (family: IssueFamily, composed: ComposedIssue, persona: Persona): GeneratedTask => {
  const init = [
    setUserInfo(),
    ...composed.issues.flatMap((issue) =>
      issue.init.filter((step) => !isAssertion(step)).map((call) => ({ ...call, arguments: { ...call.arguments } })),
    ),
  ];
  const world = brokenWorld(init);
  const fixable = composed.issues.every((issue) => issue.fix !== 'transfer');
  const fields = {
    name: subscriber.name,
    phone_number: subscriber.phoneNumber,
    location: world.abroad ? 'abroad in France' : 'at home in the United States',
  };
  const assertions = family.assertions(fixable);
  if (fixable) assertions.push(...composed.issues.flatMap((issue) => issue.extraSuccessAssertions?.(world) ?? []));
  return {
    id: formatTaskId({ family: family.name, issues: composed.issues.map((i) => i.name), persona: persona.name }),
    description: { purpose: family.purpose, relevant_policies: null, notes: null },
    user_scenario: {
      persona: persona.text,
      instructions: {
        domain: 'telecom',
        reason_for_call: family.reasonForCall,
        known_info: fill(family.knownInfo, fields),
        unknown_info: null,
        task_instructions: family.taskInstructions,
      },
    },
    ticket: fill(family.ticket, fields),
    initial_state: { initialization_data: null, initialization_actions: init, message_history: null },
    evaluation_criteria: {
      actions: fixable ? goldActions(composed.issues.flatMap((issue) => (issue.fix === 'transfer' ? [] : issue.fix))) : [transfer()],
      env_assertions: assertions,
      communicate_info: null,
      nl_assertions: null,
      reward_basis: fixable ? ['ENV_ASSERTION'] : ['ENV_ASSERTION', 'ACTION'],
    },
  };
};
