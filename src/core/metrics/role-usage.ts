// Adding up calls into role usage: a meter's calls, a participant's messages, a simulation's record (its
// `info.usage`), a run's simulations. Costs of unpriced models are never added as 0: the model is named instead.
import { isPriced } from '../llm/pricing.ts';
import type { MeteredCall, UsageMeter } from '../llm/meter.ts';
import { isPlainDict, pyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { Info, Results, SimulationRun } from '../schemas/simulation.ts';
import { CostRoleSchema, UsageByRoleSchema } from '../schemas/usage.ts';
import type { CostRole, RoleUsage, UsageByRole } from '../schemas/usage.ts';

export const COST_ROLES: readonly CostRole[] = CostRoleSchema.options;

/** Each role's name in a summary or a page. */
export const COST_ROLE_LABELS: Readonly<Record<CostRole, string>> = { agent: 'Agent', user: 'User', judge: 'Judge', retrieval: 'Retrieval', review: 'Review' };

export const emptyRoleUsage = (): RoleUsage => ({
  calls: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  reasoning_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost: 0,
  unpriced_models: [],
});

export const emptyUsageByRole = (): UsageByRole => ({
  agent: emptyRoleUsage(),
  user: emptyRoleUsage(),
  judge: emptyRoleUsage(),
  retrieval: emptyRoleUsage(),
  review: emptyRoleUsage(),
});

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort();

export const addRoleUsage = (a: RoleUsage, b: RoleUsage): RoleUsage => ({
  calls: a.calls + b.calls,
  prompt_tokens: a.prompt_tokens + b.prompt_tokens,
  completion_tokens: a.completion_tokens + b.completion_tokens,
  reasoning_tokens: a.reasoning_tokens + b.reasoning_tokens,
  cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
  cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
  cost: a.cost + b.cost,
  unpriced_models: union(a.unpriced_models, b.unpriced_models),
});

export const addCall = (into: RoleUsage, call: MeteredCall): RoleUsage =>
  addRoleUsage(into, {
    calls: 1,
    prompt_tokens: call.usage?.prompt_tokens ?? 0,
    completion_tokens: call.usage?.completion_tokens ?? 0,
    reasoning_tokens: call.usage?.reasoning_tokens ?? 0,
    cache_read_tokens: call.usage?.cache_read_tokens ?? 0,
    cache_write_tokens: call.usage?.cache_write_tokens ?? 0,
    cost: call.cost ?? 0,
    unpriced_models: call.cost === null ? [call.model] : [],
  });

/** A meter and the usage of the calls it has seen. */
export const usageLedger = (): { readonly meter: UsageMeter; usage: () => RoleUsage } => {
  let usage = emptyRoleUsage();
  return { meter: (call) => void (usage = addCall(usage, call)), usage: () => usage };
};

const tokenCount = (usage: Readonly<Record<string, unknown>>, key: string): number => {
  const value = usage[key];
  return typeof value === 'number' ? value : 0;
};

/**
 * A participant's calls from its messages: one per message with a usage. A message of a model without a known
 * price (cost 0, as the reference records it) or without a cost (an external participant's) names the model.
 */
export const messagesUsage = (messages: readonly Message[], role: 'assistant' | 'user', model: string | null): RoleUsage => {
  let usage = emptyRoleUsage();
  for (const message of messages) {
    if (message.role !== role || message.usage === null) continue;
    const counts = message.usage as Readonly<Record<string, unknown>>;
    const cost = message.cost === null ? null : message.cost.value;
    const priced = cost !== null && (cost > 0 || (model !== null && isPriced(model)));
    usage = addCall(usage, {
      model: model ?? 'unknown',
      usage: {
        prompt_tokens: tokenCount(counts, 'prompt_tokens'),
        completion_tokens: tokenCount(counts, 'completion_tokens'),
        reasoning_tokens: tokenCount(counts, 'reasoning_tokens'),
        cache_read_tokens: tokenCount(counts, 'cache_read_tokens'),
        cache_write_tokens: tokenCount(counts, 'cache_write_tokens'),
      },
      cost: priced ? cost : null,
    });
  }
  return usage;
};

/** The usage as a simulation's `info` keeps it (costs as floats, as every cost of the results file). */
export const usageInfo = (usage: UsageByRole): Record<string, PyValue> =>
  Object.fromEntries(COST_ROLES.map((role) => [role, { ...usage[role], cost: pyFloat(usage[role].cost), unpriced_models: [...usage[role].unpriced_models] }]));

/** The usage a simulation recorded in `info.usage`, or null (a reference file, an infrastructure error). */
export const recordedUsage = (simulation: Pick<SimulationRun, 'info'>): UsageByRole | null => {
  const recorded = simulation.info?.['usage'];
  if (recorded === undefined || !isPlainDict(recorded)) return null;
  const parsed = UsageByRoleSchema.safeParse(recorded);
  return parsed.success ? parsed.data : null;
};

/** The simulation with `usage` in its `info` (other entries kept). */
export const withUsage = (simulation: SimulationRun, usage: UsageByRole): SimulationRun => ({
  ...simulation,
  info: { ...(simulation.info ?? {}), usage: usageInfo(usage) },
});

/** The models of a run's participants, to price the messages of a simulation that recorded no usage. */
export interface ParticipantModels {
  readonly agent: string | null;
  readonly user: string | null;
}

/** The participants' models as a results file names them. */
export const participantModels = (info: Pick<Info, 'agent_info' | 'user_info'>): ParticipantModels => ({
  agent: info.agent_info.llm ?? null,
  user: info.user_info.llm ?? null,
});

/** A simulation's usage: as recorded, else the agent's and user's from its messages (nothing else is known then). */
export const simulationUsage = (simulation: Pick<SimulationRun, 'info' | 'messages'>, models: ParticipantModels): UsageByRole => {
  const recorded = recordedUsage(simulation);
  if (recorded !== null) return recorded;
  const messages = simulation.messages ?? [];
  return { ...emptyUsageByRole(), agent: messagesUsage(messages, 'assistant', models.agent), user: messagesUsage(messages, 'user', models.user) };
};

/** The simulation with `spent` added to one role of its usage. */
export const withRoleUsage = (simulation: SimulationRun, role: CostRole, spent: RoleUsage, models: ParticipantModels): SimulationRun => {
  const usage = simulationUsage(simulation, models);
  return withUsage(simulation, { ...usage, [role]: addRoleUsage(usage[role], spent) });
};

export type UsageTotals = UsageByRole & { readonly total: RoleUsage };

/** A run's usage by role over its simulations, and over all roles. */
export const usageTotals = (simulations: readonly Pick<SimulationRun, 'info' | 'messages'>[], models: ParticipantModels): UsageTotals => {
  const sums = emptyUsageByRole();
  for (const simulation of simulations) {
    const usage = simulationUsage(simulation, models);
    for (const role of COST_ROLES) sums[role] = addRoleUsage(sums[role], usage[role]);
  }
  return { ...sums, total: COST_ROLES.reduce((total, role) => addRoleUsage(total, sums[role]), emptyRoleUsage()) };
};

/** A results file's usage by role. */
export const resultsUsage = (results: Pick<Results, 'info' | 'simulations'>): UsageTotals => usageTotals(results.simulations, participantModels(results.info));

/** A cost as a display shows it: dollars, the unpriced models named (never $0 for them), "none" without calls. */
export const costText = (usage: RoleUsage, digits = 4): string => {
  if (usage.calls === 0) return 'none';
  const unpriced = usage.unpriced_models.length === 0 ? null : `unpriced (${usage.unpriced_models.join(', ')})`;
  if (unpriced === null) return `$${usage.cost.toFixed(digits)}`;
  return usage.cost > 0 ? `$${usage.cost.toFixed(digits)} + ${unpriced}` : unpriced;
};
