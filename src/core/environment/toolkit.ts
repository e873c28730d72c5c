// Toolkits: a domain's tools in registration order, their tags, schemas and Python-style argument binding
// (reference: src/tau2/environment/toolkit.py, tool.py).
import { ToolError } from './errors.ts';
import type { ToolParameters, ToolSchema } from '../llm/tool-schema.ts';
import type { PyValue } from '../py/index.ts';
import type { ToolType } from '../schemas/simulation.ts';
import type { ToolResult } from './serialize.ts';
import type { ToolServices } from './tool-services.ts';

export type ToolArgs = Readonly<Record<string, PyValue>>;

export interface ToolSpec<Db> {
  readonly type: ToolType;
  /** Defaults to `type === 'write'`; only mutating tools are replayed during evaluation. */
  readonly mutatesState?: boolean;
  /** A tool that runs when called by name but is never offered to the model (`@is_discoverable_tool`). */
  readonly discoverable?: boolean;
  readonly description: string;
  readonly parameters: ToolParameters;
  /**
   * For a tool whose work awaits (a model, an embeddings endpoint, the shell): that work, done first on the DB
   * as it stands. `run` then gets what it resolved to as `prepared` and applies it to the DB, so a DB is never
   * held across an await. Such a tool runs only as a live call (`Environment.respond`), never in replays.
   */
  readonly prepare?: (db: Db, args: ToolArgs, services: ToolServices) => Promise<unknown>;
  readonly run: (db: Db, args: ToolArgs, prepared?: unknown) => ToolResult;
}

/** A non-tool toolkit method, reachable only from initialization actions and env assertions. */
export interface EnvFunctionSpec<Db> {
  readonly params: readonly Param[];
  readonly run: (db: Db, args: ToolArgs) => ToolResult;
}

export interface Param {
  readonly name: string;
  readonly hasDefault: boolean;
  readonly default?: PyValue;
}

export interface Toolkit<Db> {
  /** The Python class name, which appears in argument errors ("MockTools.create_task() missing …"). */
  readonly className: string;
  readonly tools: Readonly<Record<string, ToolSpec<Db>>>;
  readonly functions: Readonly<Record<string, EnvFunctionSpec<Db>>>;
}

export const defineToolkit = <Db>(toolkit: Toolkit<Db>): Toolkit<Db> => toolkit;

export const mutatesState = (spec: ToolSpec<unknown>): boolean => spec.mutatesState ?? spec.type === 'write';

export const toolSchema = (name: string, spec: ToolSpec<unknown>): ToolSchema => ({
  type: 'function',
  function: { name, description: spec.description, parameters: spec.parameters },
});

/** The schemas offered to the model: every tool but the discoverable ones, in registration order. */
export const toolSchemas = (toolkit: Toolkit<never> | Toolkit<unknown>): ToolSchema[] =>
  Object.entries(toolkit.tools as Record<string, ToolSpec<unknown>>)
    .filter(([, spec]) => spec.discoverable !== true)
    .map(([name, spec]) => toolSchema(name, spec));

/** The signature of a tool, read from its parameter schema (property order = Python parameter order). */
export const toolParams = (spec: ToolSpec<unknown>): Param[] => {
  const required = new Set(spec.parameters.required ?? []);
  return Object.entries(spec.parameters.properties).map(([name, prop]) =>
    required.has(name)
      ? { name, hasDefault: false }
      : { name, hasDefault: true, default: (prop.default ?? null) as PyValue },
  );
};

const quoteList = (names: string[]): string => {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
};

/**
 * Binds keyword arguments the way CPython does for `method(**kwargs)`: an unknown keyword is reported
 * first, then every missing required parameter, with CPython's exact TypeError text.
 */
export const bindArguments = (qualname: string, params: readonly Param[], args: ToolArgs): Record<string, PyValue> => {
  const known = new Set(params.map((p) => p.name));
  for (const key of Object.keys(args)) {
    if (!known.has(key)) throw new ToolError(`${qualname}() got an unexpected keyword argument '${key}'`);
  }
  const missing = params.filter((p) => !p.hasDefault && !Object.hasOwn(args, p.name)).map((p) => p.name);
  if (missing.length > 0) {
    const noun = missing.length === 1 ? 'argument' : 'arguments';
    throw new ToolError(`${qualname}() missing ${missing.length} required positional ${noun}: ${quoteList(missing)}`);
  }
  const bound: Record<string, PyValue> = {};
  for (const p of params) bound[p.name] = Object.hasOwn(args, p.name) ? args[p.name]! : (p.default ?? null);
  return bound;
};
