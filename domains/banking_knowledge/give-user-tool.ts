// give_discoverable_user_tool: the agent hands the customer one of the user's discoverable tools, recorded in
// the DB where the user's toolkit checks it (reference: KnowledgeTools.give_discoverable_user_tool).
import { PyError, PyJsonDecodeError, dumpsPy, isPyDict, parsePyJson, pyStr, pyTypeName } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { truthy } from '../../src/core/environment/python-args.ts';
import type { TransactionalDB } from './data_model.ts';
import { addToDb } from './db_query.ts';
import { members } from './discoverable/arguments.ts';
import { parseDiscoverableToolDocstring } from './discoverable/declare.ts';
import { userDiscoverableTools } from './discoverable/user.ts';
import { generateUserDiscoverableToolId } from './utils.ts';

export const giveUserTool = (db: TransactionalDB, name: PyValue | undefined, text: PyValue | undefined): string => {
  // `hasattr(KnowledgeUserTools, name)` needs a str; only the user's discoverable methods qualify.
  if (typeof name !== 'string') throw new ToolError(`attribute name must be string, not '${pyTypeName(name)}'`);
  const tool = Object.hasOwn(userDiscoverableTools, name) ? userDiscoverableTools[name] : undefined;
  if (!tool) return `Error: Unknown discoverable tool '${name}'.`;
  if (typeof text !== 'string') {
    throw new ToolError(`the JSON object must be str, bytes or bytearray, not ${pyTypeName(text)}`);
  }
  let args: PyValue;
  try {
    args = parsePyJson(text);
  } catch (error) {
    if (error instanceof PyJsonDecodeError) return `Error: Invalid JSON in arguments: ${error.message}`;
    throw error;
  }
  // Arguments may be partial (the user fills in the rest); only unknown names are refused.
  const params = new Set([...tool.params.map((p) => p.name), 'self']);
  for (const argName of members(args)) {
    if (Array.isArray(argName) || isPyDict(argName)) throw new PyError('TypeError', `unhashable type: '${pyTypeName(argName)}'`);
    if (typeof argName !== 'string' || !params.has(argName)) return `Error: Unexpected parameter: ${pyStr(argName)}`;
  }
  const info = parseDiscoverableToolDocstring(name, tool.doc);
  addToDb(db, 'user_discoverable_tools', generateUserDiscoverableToolId(name), { tool_name: name, status: 'GIVEN' });
  const shown = truthy(args) ? dumpsPy(args, { indent: 2 }) : '(no arguments)';
  return (
    `Tool given to user: ${name}\nDescription: ${info.description}\nArguments: ${shown}\n\n` +
    `The user can now execute this action by calling \`call_discoverable_user_tool\` with discoverable_tool_name='${name}' and the same arguments.`
  );
};
