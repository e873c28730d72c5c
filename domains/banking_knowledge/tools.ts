// The banking_knowledge agent toolkit: the listed tools in the reference's order, then every discoverable
// tool (callable by name, never listed) (reference: KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
// Retrieval tools (KB search, grep, shell) come from the run's retrieval configuration and are placed first,
// as the reference's toolkit subclasses list their own tools before the inherited ones.
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import type { ToolSpec, Toolkit } from '../../src/core/environment/toolkit.ts';
import { pyStr } from '../../src/core/py/index.ts';
import type { KnowledgeDb } from './data_model.ts';
import { addToDb } from './db_query.ts';
import { agentDiscoverableTools } from './discoverable/index.ts';
import { asToolSpec, discoverableMutatesState, formatDiscoverableToolForAgent, parseDiscoverableToolDocstring } from './discoverable/declare.ts';
import { invokeDiscoverable, parseToolArguments } from './discoverable/call.ts';
import { KNOWLEDGE_TOOL_SCHEMAS as S } from './tool_schemas.ts';
import { generateAgentDiscoverableToolId } from './utils.ts';

const CLASS_NAME = 'KnowledgeTools';

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
    tools: {
      ...retrievalTools,
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
      ...Object.fromEntries(Object.entries(agentDiscoverableTools).map(([name, tool]) => [name, asToolSpec(tool)])),
    },
  });
