// Running a discoverable tool from a JSON argument text, as call_discoverable_agent_tool and
// call_discoverable_user_tool do: numbers normalized to float, Python's keyword binding, TypeErrors reported.
import { PyFloat, PyJsonDecodeError, dictEntries, isPyDict, isPyError, parsePyJson, pyTypeName } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { ToolError } from '../../../src/core/environment/errors.ts';
import { bindArguments } from '../../../src/core/environment/toolkit.ts';
import type { DiscoverableTool } from './declare.ts';

/** The module of both toolkit classes, which Python names in a failed `**` unpacking. */
const MODULE = 'tau2.domains.banking_knowledge.tools';

/** `json.loads(text, parse_int=float)`: every JSON integer becomes a float, so `33` and `33.0` are one value. */
const intsAsFloats = (value: PyValue): PyValue => {
  if (typeof value === 'number') return new PyFloat(value);
  if (Array.isArray(value)) return value.map(intsAsFloats);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, intsAsFloats(v)]));
  if (isPyDict(value)) return Object.fromEntries(dictEntries(value).map(([k, v]) => [k, intsAsFloats(v as PyValue)]));
  return value;
};

/** The parsed arguments, or the tool's "Invalid JSON" text. A non-str argument raises Python's TypeError. */
export const parseToolArguments = (text: PyValue | undefined): { args: PyValue } | { error: string } => {
  if (typeof text !== 'string') {
    throw new ToolError(`the JSON object must be str, bytes or bytearray, not ${pyTypeName(text)}`);
  }
  try {
    return { args: intsAsFloats(parsePyJson(text)) };
  } catch (error) {
    if (error instanceof PyJsonDecodeError) return { error: `Error: Invalid JSON in arguments: ${error.message}` };
    throw error;
  }
};

/**
 * `method(**args)` on the toolkit class `className`: the tool's text, or `{ typeError }` with the message of the
 * TypeError Python raises (from binding the keywords or from inside the body).
 */
export const invokeDiscoverable = <Db>(
  className: string,
  name: string,
  tool: DiscoverableTool<Db>,
  db: Db,
  args: PyValue,
): { result: string } | { typeError: string } => {
  if (!isPyDict(args)) {
    return { typeError: `${MODULE}.${className}.${name}() argument after ** must be a mapping, not ${pyTypeName(args)}` };
  }
  let bound: Record<string, PyValue>;
  try {
    bound = bindArguments(`${className}.${name}`, tool.params, Object.fromEntries(dictEntries(args)) as Record<string, PyValue>);
  } catch (error) {
    if (error instanceof ToolError) return { typeError: error.message };
    throw error;
  }
  try {
    return { result: tool.run(db, bound) };
  } catch (error) {
    if (isPyError(error, 'TypeError')) return { typeError: error.message };
    throw error;
  }
};
