// The banking_knowledge data model: the transactional DB every tool reads and writes (and the evaluator
// compares) and the toolkit's memory beside it (reference: src/tau2/domains/banking_knowledge/data_model.py; its
// Document is the retrieval library's KnowledgeDocument).
import { z } from 'zod';
import { isPyDict } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';

/** A Python dict as parsed from JSON: a plain object, or a Map when a key looks like an array index ("123"). */
export type PyDict = { [key: string]: PyValue } | Map<string, PyValue>;

const PyDictSchema = z.custom<PyDict>((value) => isPyDict(value), { message: 'Input should be a valid dictionary' });

/** `DatabaseTable`: records by id (each a free-form dict) and the table's notes. */
export const DatabaseTableSchema = z.object({
  data: PyDictSchema.default(() => ({})),
  notes: z.string().default(''),
});
export type DatabaseTable = z.infer<typeof DatabaseTableSchema>;

const table = () => DatabaseTableSchema.default(() => ({ data: {}, notes: '' }));

/** Every table of `TransactionalDB`, in the reference's field order (the order `model_dump` writes them). */
export const TRANSACTIONAL_TABLES = [
  'users',
  'accounts',
  'debit_cards',
  'referrals',
  'credit_card_applications',
  'user_discoverable_tools',
  'user_discoverable_tool_calls',
  'verification_history',
  'credit_card_transaction_history',
  'cash_back_disputes',
  'bank_account_transaction_history',
  'credit_card_accounts',
  'agent_discoverable_tools',
  'task_config',
  'human_transfer_requests',
  'transaction_disputes',
  'credit_card_orders',
  'debit_card_orders',
  'credit_card_closure_reasons',
  'credit_card_account_flags',
  'credit_limit_increase_requests',
  'payment_history',
  'debit_card_disputes',
] as const;
export type TableName = (typeof TRANSACTIONAL_TABLES)[number];

export const TransactionalDBSchema = z.object(
  Object.fromEntries(TRANSACTIONAL_TABLES.map((name) => [name, table()])) as Record<TableName, ReturnType<typeof table>>,
);
export type TransactionalDB = z.infer<typeof TransactionalDBSchema>;

/**
 * What the agent toolkit remembers between calls outside the DB (the reference keeps it on the toolkit object
 * and in its sandbox): the discoverable tools unlocked so far and, in a write-mode shell, the files the agent
 * changed (a ShellState as JSON text). It travels with the DB so that an episode's state stays one value, but
 * it is not part of `TransactionalDB` and never part of the DB verdict.
 */
export const ToolkitMemorySchema = z.object({
  unlocked_agent_tools: z.array(z.string()).default(() => []),
  shell_state: z.string().optional(),
});
export type ToolkitMemory = z.infer<typeof ToolkitMemorySchema>;

/** The DB a banking environment holds: the transactional tables plus the toolkit's memory. */
export const KnowledgeDbSchema = TransactionalDBSchema.extend({
  toolkit_memory: ToolkitMemorySchema.default(() => ({ unlocked_agent_tools: [] })),
});
export type KnowledgeDb = z.infer<typeof KnowledgeDbSchema>;

/** The part of the DB the reference hashes: every table, without the toolkit's memory. */
export const transactionalPart = (db: KnowledgeDb): TransactionalDB => {
  const { toolkit_memory: _memory, ...tables } = db;
  return tables;
};
