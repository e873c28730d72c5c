// The banking_knowledge agent toolkit: the listed tools in the reference's order, then every discoverable
// tool (callable by name, never listed) (reference: KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
// Retrieval tools (KB search, grep, shell) come from the run's retrieval configuration and are placed first,
// as the reference's toolkit subclasses list their own tools before the inherited ones.
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import type { ToolSpec, Toolkit } from '../../src/core/environment/toolkit.ts';
import { pyStr } from '../../src/core/py/index.ts';
import { requireStr } from '../../src/core/environment/python-args.ts';
import type { KnowledgeDb } from './data_model.ts';
import { addToDb, queryDatabaseTool, updateRecordInDb } from './db_query.ts';
import { isOneOf } from './record-values.ts';
import { giveUserTool } from './give-user-tool.ts';
import { raisingToolErrors } from './tool-errors.ts';
import { agentDiscoverableTools } from './discoverable/index.ts';
import { asToolSpec, discoverableMutatesState, formatDiscoverableToolForAgent, parseDiscoverableToolDocstring } from './discoverable/declare.ts';
import { invokeDiscoverable, parseToolArguments } from './discoverable/call.ts';
import { KNOWLEDGE_TOOL_SCHEMAS as S, TRANSFER_REASONS } from './tool_schemas.ts';
import type { KnowledgeToolSchema } from './tool_schemas.ts';
import { generateAgentDiscoverableToolId, generateVerificationId } from './utils.ts';

const CLASS_NAME = 'KnowledgeTools';

const VERIFICATION_FIELDS = ['name', 'user_id', 'address', 'email', 'phone_number', 'date_of_birth', 'time_verified'] as const;

/**
 * A read tool listing the records whose `field` equals its one argument. It builds the constraint JSON by pasting
 * the argument into a template, as the reference does (a quote in it makes the JSON invalid).
 */
const lookupTool = (schema: KnowledgeToolSchema, table: string, field: string, arg: string): ToolSpec<KnowledgeDb> => ({
  type: 'read',
  ...schema,
  run: (db, args) => queryDatabaseTool(db, table, `{"${field}": "${pyStr(args[arg])}"}`),
});

/** The discoverable agent tool of that name (`has_discoverable_tool`), with Python's check of the key. */
const discoverableTool = (name: unknown) =>
  dictHas(agentDiscoverableTools, name as never) ? agentDiscoverableTools[name as string] : undefined;

const unknownTool = (name: unknown): string => `Error: Unknown agent tool '${pyStr(name as never)}'. This tool is not available.`;

/** Per-episode inputs of the toolkit. */
export interface KnowledgeToolsOptions {
  /** Read-only discoverable tools whose calls are still logged (those the task's gold actions call). */
  readonly readLogAllowlist: ReadonlySet<string>;
  /** The retrieval configuration's own tools, listed before the base tools. */
  readonly retrievalTools?: Readonly<Record<string, ToolSpec<KnowledgeDb>>>;
}

export const knowledgeTools = ({ readLogAllowlist, retrievalTools = {} }: KnowledgeToolsOptions): Toolkit<KnowledgeDb> =>
  defineToolkit<KnowledgeDb>({
    className: CLASS_NAME,
    functions: {},
    tools: raisingToolErrors({
      ...retrievalTools,
      transfer_to_human_agents: {
        type: 'generic',
        ...S.transfer_to_human_agents,
        run: (_db, { reason }) =>
          isOneOf(reason, TRANSFER_REASONS)
            ? `Transfer successful (reason: ${pyStr(reason)}). A human agent will assist you shortly.`
            : `Error: Invalid transfer reason '${pyStr(reason)}'. Must be one of: ${TRANSFER_REASONS.join(', ')}`,
      },
      get_current_time: {
        type: 'read',
        ...S.get_current_time,
        run: () => 'The current time is 2025-11-14 03:40:00 EST.',
      },
      get_user_information_by_id: lookupTool(S.get_user_information_by_id, 'users', 'user_id', 'user_id'),
      get_user_information_by_name: lookupTool(S.get_user_information_by_name, 'users', 'name', 'customer_name'),
      get_user_information_by_email: lookupTool(S.get_user_information_by_email, 'users', 'email', 'email'),
      change_user_email: {
        type: 'write',
        ...S.change_user_email,
        run: (db, { user_id: userId, new_email: email }) => {
          const updated = dictHas(db.users.data, userId) && updateRecordInDb(db, 'users', userId, [['email', email!]]);
          if (!updated) return `Error: User with ID '${pyStr(userId)}' not found.`;
          return `Email updated successfully.\n  - User ID: ${userId}\n  - New Email: ${pyStr(email)}`;
        },
      },
      get_referrals_by_user: lookupTool(S.get_referrals_by_user, 'referrals', 'referrer_id', 'user_id'),
      get_credit_card_transactions_by_user: lookupTool(S.get_credit_card_transactions_by_user, 'credit_card_transaction_history', 'user_id', 'user_id'),
      get_credit_card_accounts_by_user: lookupTool(S.get_credit_card_accounts_by_user, 'credit_card_accounts', 'user_id', 'user_id'),
      log_verification: {
        type: 'write',
        ...S.log_verification,
        run: (db, a) => {
          const time = requireStr(a.time_verified, 'replace');
          const recordId = generateVerificationId(a.user_id!, time);
          const record = Object.fromEntries(VERIFICATION_FIELDS.map((key) => [key, a[key]!]));
          if (!addToDb(db, 'verification_history', recordId, record)) {
            return 'Failed to log verification: Record may already exist.';
          }
          return `Verification logged successfully.\n  - User: ${pyStr(a.name)} (ID: ${pyStr(a.user_id)})\n  - Verified at: ${time}`;
        },
      },
      give_discoverable_user_tool: {
        type: 'generic',
        mutatesState: true,
        ...S.give_discoverable_user_tool,
        run: (db, { discoverable_tool_name: name, arguments: text }) => giveUserTool(db, name, text),
      },
      unlock_discoverable_agent_tool: {
        type: 'generic',
        mutatesState: true,
        ...S.unlock_discoverable_agent_tool,
        run: (db, { agent_tool_name: name }) => {
          const tool = discoverableTool(name);
          if (!tool) return unknownTool(name);
          const info = parseDiscoverableToolDocstring(name as string, tool.doc);
          const unlocked = db.toolkit_memory.unlocked_agent_tools;
          if (!unlocked.includes(info.name)) unlocked.push(info.name);
          return (
            `Tool unlocked: ${info.name}\nDescription: ${info.description}\n\n${formatDiscoverableToolForAgent(info)}\n\n` +
            `You can now use this tool by calling \`call_discoverable_agent_tool\` with agent_tool_name='${info.name}' and the required arguments.`
          );
        },
      },
      call_discoverable_agent_tool: {
        type: 'write',
        ...S.call_discoverable_agent_tool,
        run: (db, { agent_tool_name: name, arguments: text }) => {
          const tool = discoverableTool(name);
          if (!tool) return unknownTool(name);
          const toolName = name as string;
          if (!db.toolkit_memory.unlocked_agent_tools.includes(toolName)) {
            return (
              `Error: Tool '${toolName}' has not been unlocked. ` +
              'You must first use `unlock_discoverable_agent_tool` to unlock this tool before calling it.'
            );
          }
          const parsed = parseToolArguments(text);
          if ('error' in parsed) return parsed.error;
          const outcome = invokeDiscoverable(CLASS_NAME, toolName, tool, db, parsed.args);
          if ('typeError' in outcome) return `Error: Invalid arguments: ${outcome.typeError}`;
          // Reads are logged only when the task's gold actions make them; extra checking reads must not change the DB.
          if (discoverableMutatesState(tool) || readLogAllowlist.has(toolName)) {
            addToDb(db, 'agent_discoverable_tools', generateAgentDiscoverableToolId(toolName), {
              tool_name: toolName,
              status: 'CALLED',
            });
          }
          return outcome.result;
        },
      },
      list_discoverable_agent_tools: {
        type: 'read',
        ...S.list_discoverable_agent_tools,
        run: (db) => `Your called agent tools:\n${queryDatabaseTool(db, 'agent_discoverable_tools', '{}')}`,
      },
      ...Object.fromEntries(Object.entries(agentDiscoverableTools).map(([name, tool]) => [name, asToolSpec(tool)])),
    }),
  });
