// The string a model sees for a tool result (reference: Environment.to_json_str).
import { dictEntries, dumpsPy, pyDictFrom, pyStr, isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';

/**
 * A plain `dict` built by a tool (as opposed to a pydantic model): its primitive values are stringified
 * when serialized, as the reference does (`{"data_used_gb": "8.7"}`). Plain objects are models.
 */
export class PyDictResult {
  readonly entries: Readonly<Record<string, ToolResult>> | ReadonlyMap<string, ToolResult>;
  constructor(entries: Readonly<Record<string, ToolResult>> | ReadonlyMap<string, ToolResult>) {
    this.entries = entries;
  }
}

export type ToolResult = PyValue | PyDictResult | readonly ToolResult[];

export const pyDict = (entries: Readonly<Record<string, ToolResult>> | ReadonlyMap<string, ToolResult>): PyDictResult =>
  new PyDictResult(entries);

const process = (value: ToolResult): PyValue => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || isPyFloat(value)) return pyStr(value);
  if (Array.isArray(value)) return value.map(process);
  if (value instanceof PyDictResult) {
    return pyDictFrom(dictEntries<ToolResult>(value.entries).map(([k, v]): [string, PyValue] => [k, process(v)]));
  }
  // Models (plain objects, or Maps for dicts with index-like keys inside them) are dumped as they are.
  return value as PyValue;
};

/** Strings pass through verbatim; anything else becomes Python `json.dumps` of its processed form. */
export const toJsonStr = (result: ToolResult): string =>
  typeof result === 'string' ? result : dumpsPy(process(result));
