// Telecom test helpers: tool calls through the production Environment, and edits of the phone's state
// between calls (what the reference's tests do by assigning to the device model directly).
import { Environment } from '../../../src/core/environment/environment.ts';
import { mutateDb } from '../../../src/core/environment/db-state.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { ToolCall, ToolMessage } from '../../../src/core/schemas/message.ts';
import type { TelecomDB } from '../../../domains/telecom/data_model.ts';
import type { TelecomUserDB } from '../../../domains/telecom/user_data_model.ts';
import { newEnvironment } from '../../support/domains.ts';

export const telecomEnv = (solo = false): Promise<Environment> => newEnvironment('telecom', solo);

let ids = 0;
export const toolCall = (name: string, args: Record<string, PyValue> = {}, requestor: 'user' | 'assistant' = 'assistant'): ToolCall => ({
  id: `call_${++ids}`,
  name,
  arguments: args,
  requestor,
});

/** Calls an agent tool; returns the tool message the agent would see. */
export const agent = (env: Environment, name: string, args: Record<string, PyValue> = {}): ToolMessage =>
  env.getResponse(toolCall(name, args, 'assistant'));

/** Calls a user tool; returns the tool message the user would see. */
export const user = (env: Environment, name: string, args: Record<string, PyValue> = {}): ToolMessage =>
  env.getResponse(toolCall(name, args, 'user'));

export const agentDb = (env: Environment): TelecomDB => env.agentDb as TelecomDB;
export const userDb = (env: Environment): TelecomUserDB => env.userDb as TelecomUserDB;

/** A new environment whose phone state is `env`'s with `edit` applied (no sync: a direct model edit). */
export const editUserDb = (env: Environment, edit: (db: TelecomUserDB) => void): Environment => {
  const { slots, agentSlot, userSlot } = env.state;
  const slot = userSlot!;
  const { db } = mutateDb(slots[slot] as TelecomUserDB, edit);
  const next = [...slots];
  next[slot] = db;
  return new Environment(env.domain, env.data, { now: () => '2026-01-01T00:00:00' }, { slots: next, agentSlot, userSlot });
};

/** Runs a set-up or assertion function of the phone (`env_type: user`). */
export const userFunction = (env: Environment, func_name: string, args: Record<string, PyValue> = {}) =>
  env.runEnvFunctionCall({ env_type: 'user', func_name, arguments: args });

/** Runs a non-tool method of the network side (`env_type: assistant`). */
export const agentFunction = (env: Environment, func_name: string, args: Record<string, PyValue> = {}) =>
  env.runEnvFunctionCall({ env_type: 'assistant', func_name, arguments: args });
