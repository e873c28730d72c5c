// The environment of one episode: tool execution, env function calls, state initialization and replay
// (reference: src/tau2/environment/environment.py).
import { parsePyJson, pyEquals } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { EnvAssertion, EnvFunctionCall, InitializationData, Requestor } from '../schemas/task.ts';
import type { Message, ToolCall, ToolMessage } from '../schemas/message.ts';
import { ToolError, errorMessage, isToolError } from './errors.ts';
import { applyChanges, dbEquals, diffFromBase, mutateDb, partialStateOf } from './db-state.ts';
import type { DbChange } from './db-state.ts';
import type { AnyDomain, DomainData } from './domain.ts';
import { bindArguments, mutatesState, toolParams, toolSchemas } from './toolkit.ts';
import type { ToolArgs, ToolSpec, Toolkit } from './toolkit.ts';
import { UNPARSED_ARGUMENTS_KEY } from '../llm/tool-schema.ts';
import type { ToolSchema } from '../llm/tool-schema.ts';
import type { ToolServices } from './tool-services.ts';
import { meteredServices } from './tool-services.ts';
import type { UsageMeter } from '../llm/meter.ts';
import { InfraError } from '../llm/types.ts';
import { toJsonStr } from './serialize.ts';
import type { ToolResult } from './serialize.ts';
import { replayPairs } from './replay.ts';
import { deepMerge } from './deep-merge.ts';

/**
 * The DBs of an environment. Toolkits point at slots rather than owning DBs, because the reference lets
 * `initialization_data` re-point one toolkit at the other's DB object (both then see every change).
 */
export interface EnvironmentState {
  readonly slots: readonly unknown[];
  readonly agentSlot: number;
  readonly userSlot: number | null;
}

/** The serializable change set of an environment relative to its domain's shared base DBs. */
export interface EnvironmentChanges {
  slots: DbChange[][];
  agentSlot: number;
  userSlot: number | null;
}

export interface EnvironmentOptions {
  readonly solo?: boolean;
  /** Clock for ToolMessage timestamps (ISO strings, reference format). */
  readonly now: () => string;
  /** Called when a tool fails with something other than a ToolError (a bug, not a refusal). */
  readonly onUnexpectedToolError?: (toolName: string, error: unknown) => void;
  /** What tools whose work awaits may call (see ToolSpec.prepare); an episode without such tools needs none. */
  readonly services?: ToolServices;
}

/** The awaited part of a call (ToolSpec.prepare): its value, or the failure its ToolMessage reports. */
type PreparedCall = { readonly value: unknown } | { readonly failure: unknown };

type Side = 'agent' | 'user';

/** The policy the agent is given: the solo variant in solo mode, where the domain has one. */
export const domainPolicy = (data: DomainData, solo: boolean): string =>
  solo ? (data.soloPolicy ?? data.policy) : data.policy;

/** The domain's shared base DBs, one per slot: the agent's, then the user's when the domain has one. */
export const baseSlots = (data: DomainData): unknown[] => (data.userDb === null ? [data.db] : [data.db, data.userDb]);

export class Environment {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly solo: boolean;
  private readonly options: EnvironmentOptions;
  private current: EnvironmentState;

  constructor(domain: AnyDomain, data: DomainData, options: EnvironmentOptions, state?: EnvironmentState) {
    this.domain = domain;
    this.data = data;
    this.options = options;
    this.solo = options.solo ?? false;
    if (this.solo && !domain.supportsSolo) {
      throw new Error(`${domain.name[0]!.toUpperCase()}${domain.name.slice(1)} domain does not support solo mode`);
    }
    if (this.solo) this.validateSoloMode();
    this.current = state ?? {
      slots: baseSlots(data),
      agentSlot: 0,
      userSlot: data.userDb !== null ? 1 : domain.userToolkitSharesDb ? 0 : null,
    };
    if (!state) this.syncTools();
  }

  /** Agent and user tool names must be distinct when the agent holds both toolkits. */
  private validateSoloMode(): void {
    const userTools = Object.keys(this.domain.userToolkit?.tools ?? {});
    const overlap = Object.keys(this.domain.agentToolkit.tools).filter((n) => userTools.includes(n));
    if (overlap.length > 0) throw new Error(`Tool names overlap: ${overlap.join(', ')}`);
  }

  get state(): EnvironmentState {
    return this.current;
  }

  get policy(): string {
    return domainPolicy(this.data, this.solo);
  }

  /** Agent tool schemas in registration order. */
  toolSchemas(): ToolSchema[] {
    return toolSchemas(this.domain.agentToolkit);
  }

  /** User tool schemas, optionally restricted to `include` (a task's `user_tools`). */
  userToolSchemas(include: readonly string[] | null = null): ToolSchema[] {
    const toolkit = this.domain.userToolkit;
    if (!toolkit) throw new Error('User tools not available');
    const all = toolSchemas(toolkit);
    if (include === null) return all;
    const names = new Set(all.map((t) => t.function.name));
    const unknown = [...new Set(include)].filter((n) => !names.has(n)).sort();
    if (unknown.length > 0) {
      throw new Error(`Tool(s) not found: ${unknown.join(', ')}. Available: ${[...names].sort().join(', ')}`);
    }
    return all.filter((t) => include.includes(t.function.name));
  }

  get hasUserTools(): boolean {
    return this.domain.userToolkit !== null;
  }

  hasTool(name: string): boolean {
    return Object.hasOwn(this.domain.agentToolkit.tools, name) || this.hasUserTool(name);
  }

  private hasUserTool(name: string): boolean {
    return this.domain.userToolkit !== null && Object.hasOwn(this.domain.userToolkit.tools, name);
  }

  /** Whether replaying this tool can change state (agent toolkit first, then user; unknown → true). */
  isMutatingTool(name: string): boolean {
    for (const toolkit of [this.domain.agentToolkit, this.domain.userToolkit]) {
      if (toolkit && Object.hasOwn(toolkit.tools, name)) return mutatesState(toolkit.tools[name]!);
    }
    return true;
  }

  private toolkitOf(side: Side): Toolkit<unknown> {
    const toolkit = side === 'agent' ? this.domain.agentToolkit : this.domain.userToolkit;
    if (!toolkit) throw new ToolError(side === 'agent' ? 'Tools not available' : 'User tools not available');
    return toolkit;
  }

  private slotOf(side: Side): number {
    const slot = side === 'agent' ? this.current.agentSlot : this.current.userSlot;
    if (slot === null) throw new ToolError('User tools not available');
    return slot;
  }

  /** Runs `run` against the DB of `side`, keeping its changes (also the partial ones of a failing call). */
  private withDb(side: Side, run: (db: unknown) => ToolResult): { text: string; value: PyValue | undefined } {
    const slot = this.slotOf(side);
    try {
      const { db, result } = mutateDb(this.current.slots[slot], (draft) => {
        const out = run(draft);
        // Serialize while drafts are alive; keep primitives for callers that need the Python value.
        const primitive = out === null || typeof out !== 'object' ? (out as PyValue) : undefined;
        return { text: toJsonStr(out), value: primitive };
      });
      this.setSlot(slot, db);
      return result;
    } catch (error) {
      const partial = partialStateOf(error);
      if (partial !== undefined) this.setSlot(slot, partial);
      throw error;
    }
  }

  private setSlot(slot: number, db: unknown): void {
    const slots = [...this.current.slots];
    slots[slot] = db;
    this.current = { ...this.current, slots };
  }

  /** The toolkit side, tool and bound arguments of a call, routed by requestor (reference `make_tool_call`). */
  private resolveCall(name: string, requestor: Requestor, args: ToolArgs): { side: Side; spec: ToolSpec<unknown>; bound: ToolArgs } {
    if (Object.hasOwn(args, UNPARSED_ARGUMENTS_KEY)) {
      throw new ToolError(`Tool call arguments are not a valid JSON object: ${String(args[UNPARSED_ARGUMENTS_KEY])}`);
    }
    if (requestor === 'user' && this.solo) throw new ToolError('User tool calls are not allowed in solo mode');
    const side: Side = requestor === 'user' || (this.solo && this.hasUserTool(name)) ? 'user' : 'agent';
    const toolkit = this.toolkitOf(side);
    const spec = Object.hasOwn(toolkit.tools, name) ? toolkit.tools[name] : undefined;
    if (!spec) throw new ToolError(`Tool '${name}' not found.`);
    return { side, spec, bound: bindArguments(`${toolkit.className}.${name}`, toolParams(spec), args) };
  }

  /** Runs a resolved call on its side's DB; a tool whose work awaits needs that work done (`prepared`). */
  private runTool(side: Side, spec: Pick<ToolSpec<unknown>, 'run' | 'prepare'>, bound: ToolArgs, prepared?: PreparedCall): { text: string; value: PyValue | undefined } {
    if (spec.prepare && prepared === undefined) throw new Error('This tool awaits: it runs only as a live call');
    if (prepared !== undefined && 'failure' in prepared) throw prepared.failure;
    return this.withDb(side, (db) => spec.run(db, bound, prepared === undefined ? undefined : prepared.value));
  }

  /** Routes a call by requestor (reference `make_tool_call`); returns the serialized result. No sync. */
  makeToolCall(name: string, requestor: Requestor, args: ToolArgs): string {
    const { side, spec, bound } = this.resolveCall(name, requestor, args);
    return this.runTool(side, spec, bound).text;
  }

  /** Executes a tool call and returns the ToolMessage the requestor sees (reference `get_response`). */
  getResponse(call: ToolCall): ToolMessage {
    return this.toolMessage(call, () => this.makeToolCall(call.name, call.requestor, call.arguments));
  }

  /**
   * `getResponse` for a live call: a tool whose work awaits does it first (ToolSpec.prepare). A refusal is the
   * ToolMessage's error; an InfraError (a provider still failing after its retries) is thrown, so the episode
   * fails as an infrastructure error and the agent never reads it. The calls its tool makes are reported to `meter`.
   */
  async respond(call: ToolCall, meter?: UsageMeter): Promise<ToolMessage> {
    let resolved: { side: Side; spec: ToolSpec<unknown>; bound: ToolArgs };
    try {
      resolved = this.resolveCall(call.name, call.requestor, call.arguments);
    } catch (error) {
      return this.toolMessage(call, () => {
        throw error;
      });
    }
    const { side, spec, bound } = resolved;
    const prepared = spec.prepare ? await this.prepare(call.name, side, spec.prepare, bound, meter) : undefined;
    return this.toolMessage(call, () => this.runTool(side, spec, bound, prepared).text);
  }

  private async prepare(
    name: string,
    side: Side,
    prepare: NonNullable<ToolSpec<unknown>['prepare']>,
    bound: ToolArgs,
    meter: UsageMeter | undefined,
  ): Promise<PreparedCall> {
    if (!this.options.services) throw new Error(`Tool '${name}' needs the host's tool services, which this episode was not given`);
    try {
      return { value: await prepare(this.current.slots[this.slotOf(side)], bound, meteredServices(this.options.services, meter)) };
    } catch (error) {
      if (error instanceof InfraError) throw error;
      return { failure: error };
    }
  }

  /** The ToolMessage of a call: what `run` gives, or the error the requestor reads. */
  private toolMessage(call: ToolCall, run: () => string): ToolMessage {
    let content: string;
    let error = false;
    try {
      content = run();
      this.syncTools();
    } catch (err) {
      if (!isToolError(err)) this.options.onUnexpectedToolError?.(call.name, err);
      content = `Error: ${errorMessage(err)}`;
      error = true;
    }
    return {
      id: call.id,
      role: 'tool',
      content,
      requestor: call.requestor,
      error,
      turn_idx: null,
      timestamp: this.options.now(),
    };
  }

  /** Runs any toolkit function, tool or not, by name (reference `run_env_function_call`). */
  runEnvFunctionCall(call: EnvFunctionCall): PyValue | undefined {
    const side: Side = call.env_type === 'user' ? 'user' : 'agent';
    const toolkit = this.toolkitOf(side);
    const tool = Object.hasOwn(toolkit.tools, call.func_name) ? toolkit.tools[call.func_name] : undefined;
    const fn = Object.hasOwn(toolkit.functions, call.func_name) ? toolkit.functions[call.func_name] : undefined;
    const params = tool ? toolParams(tool) : fn?.params;
    const spec = tool ?? fn;
    if (!params || !spec) throw new Error(`'${toolkit.className}' object has no attribute '${call.func_name}'`);
    const bound = bindArguments(`${toolkit.className}.${call.func_name}`, params, call.arguments);
    const { value } = this.runTool(side, spec, bound);
    this.syncTools();
    return value;
  }

  /** Runs an assertion function; it must return a bool, which must equal `assert_value`. */
  runEnvAssertion(assertion: EnvAssertion): boolean {
    const result = this.runEnvFunctionCall(assertion);
    if (typeof result !== 'boolean') {
      throw new Error(`Function ${assertion.func_name} returned a non-bool value instead of bool`);
    }
    return result === assertion.assert_value;
  }

  /** The reference's `sync_tools`: a no-op unless the domain keeps its two DBs in sync. */
  syncTools(): void {
    const sync = this.domain.syncTools;
    const userSlot = this.current.userSlot;
    if (!sync || userSlot === null) return;
    const { agentSlot } = this.current;
    if (agentSlot === userSlot) {
      const { db } = mutateDb(this.current.slots[agentSlot], (draft) => sync({ db: draft, userDb: draft }));
      this.setSlot(agentSlot, db);
      return;
    }
    const { db: both } = mutateDb({ db: this.current.slots[agentSlot], userDb: this.current.slots[userSlot] }, (d) =>
      sync(d),
    );
    this.setSlot(agentSlot, both.db);
    this.setSlot(userSlot, both.userDb);
  }

  /** Replaces a DB with its update merged in and re-validated, and re-points the other toolkit at it. */
  private updateDb(side: Side, update: Record<string, PyValue>): void {
    const parse = side === 'agent' ? this.domain.parseDb : this.domain.parseUserDb;
    if (!parse) throw new Error('User tools not available');
    const slot = this.slotOf(side);
    this.setSlot(slot, parse(deepMerge(this.current.slots[slot], update)));
    const other: Side = side === 'agent' ? 'user' : 'agent';
    const otherSlot = other === 'agent' ? this.current.agentSlot : this.current.userSlot;
    if (otherSlot !== null) {
      this.current = side === 'agent' ? { ...this.current, userSlot: slot } : { ...this.current, agentSlot: slot };
    }
  }

  /**
   * Initializes the environment from a task's initial state and replays a message history: every mutating
   * tool call is re-executed and must reproduce its recorded output (`strict`), else an error is thrown.
   */
  setState(
    initializationData: InitializationData | null,
    initializationActions: readonly EnvFunctionCall[] | null,
    messageHistory: readonly Message[],
    strict = true,
    onReplayMismatch?: (detail: string) => void,
  ): void {
    if (this.solo && messageHistory.some((m) => m.role === 'user')) {
      throw new Error('User messages are not allowed in solo mode');
    }
    if (initializationData?.agent_data) this.updateDb('agent', initializationData.agent_data);
    if (initializationData?.user_data) this.updateDb('user', initializationData.user_data);
    for (const action of initializationActions ?? []) this.runEnvFunctionCall(action);
    for (const [call, expected] of replayPairs(messageHistory)) {
      if (!this.hasTool(call.name) || !this.isMutatingTool(call.name)) continue;
      const response = this.getResponse(call);
      if (!sameToolContent(response.content, expected.content)) {
        const detail =
          `Tool call:\n${JSON.stringify(call)}\n\nReturned:\n${response.content}\n\nExpected:\n${expected.content}`;
        if (strict) throw new Error(detail);
        onReplayMismatch?.(detail);
      }
    }
    this.syncTools();
  }

  /** The DB verdict: agent DB and user DB both equal (reference: hash equality of both). */
  dbMatches(other: Environment): boolean {
    const [a, b] = [this.current, other.current];
    const hashed = this.domain.hashedDb ?? ((db: unknown) => db);
    const userA = a.userSlot === null ? null : hashed(a.slots[a.userSlot]);
    const userB = b.userSlot === null ? null : hashed(b.slots[b.userSlot]);
    return dbEquals(hashed(a.slots[a.agentSlot]), hashed(b.slots[b.agentSlot])) && dbEquals(userA, userB);
  }

  get agentDb(): unknown {
    return this.current.slots[this.current.agentSlot];
  }

  get userDb(): unknown {
    return this.current.userSlot === null ? null : this.current.slots[this.current.userSlot];
  }

  /** The change set to persist: per slot, the changes against the shared base DB of that slot. */
  changes(): EnvironmentChanges {
    const bases = baseSlots(this.data);
    return {
      slots: this.current.slots.map((db, i) => diffFromBase(bases[i], db)),
      agentSlot: this.current.agentSlot,
      userSlot: this.current.userSlot,
    };
  }

  /** Rebuilds an environment from a persisted change set. */
  static restore(domain: AnyDomain, data: DomainData, options: EnvironmentOptions, changes: EnvironmentChanges): Environment {
    const bases = baseSlots(data);
    const slots = changes.slots.map((c, i) => applyChanges(bases[i], c));
    return new Environment(domain, data, options, { slots, agentSlot: changes.agentSlot, userSlot: changes.userSlot });
  }
}

/** Whether two tool results say the same (as Python values: a replay's text may format them differently). */
export const sameToolContent = (a: string | null, b: string | null): boolean => pyEquals(parseContent(a), parseContent(b));

const parseContent = (content: string | null): PyValue => {
  if (content === null) return null;
  try {
    return parsePyJson(content);
  } catch {
    return content;
  }
};
