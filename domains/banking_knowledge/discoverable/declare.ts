// Discoverable tools: methods that exist and run but are not offered to the model until the knowledge base
// leads to them (reference: `@is_discoverable_tool` in src/tau2/environment/toolkit.py and the docstring
// reading of parse_discoverable_tool_docstring / format_discoverable_tool_for_agent in the domain's tools.py).
// The docstring is the tool's whole definition as the model sees it, so it is kept verbatim and parsed with
// the reference's own regular expressions: this part is hand-written for byte-exact output.
import type { PyValue } from '../../../src/core/py/index.ts';
import type { Param, ToolSpec } from '../../../src/core/environment/toolkit.ts';
import type { ToolParameters } from '../../../src/core/llm/tool-schema.ts';
import type { ToolType } from '../../../src/core/schemas/simulation.ts';

/** One discoverable tool: its tag, the Python signature, its docstring and its body. */
export interface DiscoverableTool<Db> {
  readonly type: ToolType;
  /** Defaults to `type === 'write'`; decides whether a call is logged and whether it is replayed. */
  readonly mutatesState?: boolean;
  /** The docstring as `inspect.getdoc` returns it: common indentation removed, no leading or trailing blank line. */
  readonly doc: string;
  /** The parameters after `self`, in order; `hasDefault` with the default for optional ones. */
  readonly params: readonly Param[];
  /** The body, with every parameter bound (defaults filled in). Returns the text the caller sees. */
  readonly run: (db: Db, args: Readonly<Record<string, PyValue>>) => string;
}

export type DiscoverableTools<Db> = Readonly<Record<string, DiscoverableTool<Db>>>;

/** Keeps the literal's key order, which is the reference's definition order. */
export const defineDiscoverableTools = <Db>(tools: Record<string, DiscoverableTool<Db>>): DiscoverableTools<Db> => tools;

/** A signature: required parameter names, then the optional ones with their defaults (`name: str = None` → null). */
export const signature = (required: readonly string[], optional: Readonly<Record<string, PyValue>> = {}): Param[] => [
  ...required.map((name) => ({ name, hasDefault: false })),
  ...Object.entries(optional).map(([name, value]) => ({ name, hasDefault: true, default: value })),
];

export const discoverableMutatesState = <Db>(tool: DiscoverableTool<Db>): boolean =>
  tool.mutatesState ?? tool.type === 'write';

/**
 * The tool as a toolkit entry: the reference's toolkit holds discoverable methods among its tools, so calling
 * one by name runs it; it is never listed to the model. The parameter schema carries only the signature.
 */
export const asToolSpec = <Db>(tool: DiscoverableTool<Db>): ToolSpec<Db> => {
  const properties = Object.fromEntries(
    tool.params.map((p) => [p.name, p.hasDefault ? { default: p.default ?? null } : {}]),
  );
  const required = tool.params.filter((p) => !p.hasDefault).map((p) => p.name);
  const parameters: ToolParameters = { properties, required, title: 'parameters', type: 'object' };
  return {
    type: tool.type,
    mutatesState: discoverableMutatesState(tool),
    discoverable: true,
    description: tool.doc,
    parameters,
    run: (db, args) => tool.run(db, args),
  };
};

/** One parameter as the docstring's `Args:` section describes it. */
export interface DiscoverableParam {
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
}

/** `parse_discoverable_tool_docstring`: what unlocking and giving a tool show. */
export interface DiscoverableToolInfo {
  readonly name: string;
  readonly description: string;
  readonly parameters: ReadonlyMap<string, DiscoverableParam>;
}

/** Python's `re.split(pattern, text, maxsplit=1)`. */
const splitOnce = (text: string, pattern: RegExp): [string] | [string, string] => {
  const match = pattern.exec(text);
  return match ? [text.slice(0, match.index), text.slice(match.index + match[0].length)] : [text];
};

const ARG_LINE = /^\s*(\w+)\s*(?:\(([^)]+)\))?\s*:\s*(.+?)$/gm;

export const parseDiscoverableToolDocstring = (name: string, doc: string): DiscoverableToolInfo => {
  const [head, rest] = splitOnce(doc, /\n\s*Args:\s*\n/);
  const parameters = new Map<string, DiscoverableParam>();
  if (rest !== undefined) {
    const [argsSection] = splitOnce(rest, /\n\s*Returns:\s*\n/);
    for (const match of argsSection.matchAll(ARG_LINE)) {
      const typeInfo = match[2] ?? 'string';
      const type = typeInfo.replace(/,?\s*optional/gi, '').trim();
      parameters.set(match[1]!, {
        type: type === '' ? 'string' : type,
        description: match[3]!.trim(),
        required: !typeInfo.toLowerCase().includes('optional'),
      });
    }
  }
  return { name, description: head.trim(), parameters };
};

/** `format_discoverable_tool_for_agent`. */
export const formatDiscoverableToolForAgent = (info: DiscoverableToolInfo): string => {
  const lines = [...info.parameters].map(
    ([name, p]) => `  - ${name}: ${p.type}${p.required ? ' (required)' : ' (optional)'} - ${p.description}`,
  );
  const params = lines.length > 0 ? lines.join('\n') : '  (no parameters)';
  return `Tool: ${info.name}\nDescription: ${info.description}\nParameters:\n${params}`;
};
