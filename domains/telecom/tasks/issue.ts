// Atomic issues of the telecom task generator: how each breaks the world, how the agent fixes it, and the
// selection sets they are composed from (reference: src/tau2/domains/telecom/tasks/utils.py).
import type { PyValue } from '../../../src/core/py/index.ts';
import type { EnvAssertion, EnvFunctionCall, Requestor } from '../../../src/core/schemas/task.ts';

type Arguments = Readonly<Record<string, PyValue>>;

/** The customer every generated task is about: John Smith's phone line, customer C1001 / line L1002 in `db.toml`. */
export const subscriber = {
  name: 'John Smith',
  phoneNumber: '555-123-2002',
  customerId: 'C1001',
  lineId: 'L1002',
  /** The line's `data_refueling_gb` in `db.toml`. */
  dataRefuelingGb: 0,
} as const;

/** A gold tool call of the fix, made by the agent (`assistant`) or by the user on their phone. */
export interface FixCall {
  readonly requestor: Requestor;
  readonly name: string;
  readonly arguments: Arguments;
}

/** What the world looks like once every init call has run: the facts task texts and assertions depend on. */
export interface BrokenWorld {
  readonly abroad: boolean;
  /** The subscriber line's `data_refueling_gb` before any fix. */
  readonly dataRefuelingGb: number;
}

/**
 * A step of an issue's set-up: a call that breaks the world, or an assertion that the break took effect
 * (checked when the task is verified, never stored in the task).
 */
export type InitStep = EnvFunctionCall | EnvAssertion;

export const isAssertion = (step: InitStep): step is EnvAssertion => 'assert_value' in step;

export interface AtomicIssue {
  readonly name: string;
  /** Set-up steps, run in order after the user's info is set. */
  readonly init: readonly InitStep[];
  /** The gold fix, or `transfer` when the agent cannot fix it and must transfer to a human. */
  readonly fix: readonly FixCall[] | 'transfer';
  /** Assertions added to the family's success assertions when the task is fixable. */
  readonly extraSuccessAssertions?: (world: BrokenWorld) => readonly EnvAssertion[];
}

/** Mutually exclusive issues: a composed task takes at most one of them. */
export type SelectionSet = readonly AtomicIssue[];

export const userCall = (funcName: string, args: Arguments = {}): EnvFunctionCall => ({
  env_type: 'user',
  func_name: funcName,
  arguments: { ...args },
});

export const agentCall = (funcName: string, args: Arguments = {}): EnvFunctionCall => ({
  env_type: 'assistant',
  func_name: funcName,
  arguments: { ...args },
});

export const userFix = (name: string, args: Arguments = {}): FixCall => ({ requestor: 'user', name, arguments: args });

export const agentFix = (name: string, args: Arguments = {}): FixCall => ({ requestor: 'assistant', name, arguments: args });

export const assertion = (call: EnvFunctionCall, message: string | null = null): EnvAssertion => ({
  ...call,
  assert_value: true,
  message,
});

/** The first set-up call of every task: who the user is. */
export const setUserInfo = (): EnvFunctionCall =>
  userCall('set_user_info', { name: subscriber.name, phone_number: subscriber.phoneNumber });

/** The subscriber's customer and line, as the agent-side tools take them. */
export const subscriberLine = (): Arguments => ({ customer_id: subscriber.customerId, line_id: subscriber.lineId });
