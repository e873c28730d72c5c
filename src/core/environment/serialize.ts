// The string a model sees for a tool result (reference: Environment.to_json_str).
import { dumpsPy, pyStr, isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';

/**
 * A plain `dict` built by a tool (as opposed to a pydantic model): its primitive values are stringified
 * when serialized, as the reference does (`{"data_used_gb": "8.7"}`). Plain objects are models.
 */
export class PyDictResult {
  readonly entries: Readonly<Record<string, ToolResult>>;
  constructor(entries: Readonly<Record<string, ToolResult>>) {
    this.entries = entries;
  }
}

export type ToolResult = PyValue | PyDictResult | readonly ToolResult[];

export const pyDict = (entries: Readonly<Record<string, ToolResult>>): PyDictResult => new PyDictResult(entries);

const process = (value: ToolResult): PyValue => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || isPyFloat(value)) return pyStr(value);
  if (Array.isArray(value)) return value.map(process);
  if (value instanceof PyDictResult) {
    const out: Record<string, PyValue> = {};
    for (const [k, v] of Object.entries(value.entries)) out[k] = process(v);
    return out;
  }
  return value as PyValue;
};

/** Strings pass through verbatim; anything else becomes Python `json.dumps` of its processed form. */
export const toJsonStr = (result: ToolResult): string =>
  typeof result === 'string' ? result : dumpsPy(process(result));
