// Where a simulation's final DB differs from the gold one: the changed paths only, each with the gold and the
// final value. The DB check says whether they match; this says how they differ, for people reading a failure.
import { diffFromBase } from '../environment/db-state.ts';
import type { Environment } from '../environment/environment.ts';
import { dumpsPy } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { DbDiff } from '../schemas/db-diff.ts';
import type { SimulationRun } from '../schemas/simulation.ts';
import type { Task } from '../schemas/task.ts';
import type { EvaluationContext } from './context.ts';
import { predictedAndGold } from './gold-run.ts';

export interface DbDifference {
  /** The agent's DB, or the user's (telecom's device). */
  readonly db: 'agent' | 'user';
  readonly path: readonly string[];
  /** The value as JSON text; null where the key is absent. */
  readonly gold: string | null;
  readonly predicted: string | null;
}

const ABSENT = Symbol('absent');

const valueAt = (root: unknown, path: readonly string[]): unknown => {
  let node = root;
  for (const key of path) {
    if (node instanceof Map) node = node.has(key) ? node.get(key) : ABSENT;
    else if (typeof node === 'object' && node !== null && Object.hasOwn(node, key)) node = (node as Record<string, unknown>)[key];
    else return ABSENT;
    if (node === ABSENT) return ABSENT;
  }
  return node;
};

const shown = (value: unknown): string | null => (value === ABSENT ? null : dumpsPy(value as PyValue));

const slotDifferences = (db: DbDifference['db'], gold: Environment, predicted: Environment, slotOf: (e: Environment) => number | null): DbDifference[] => {
  const [g, p] = [slotOf(gold), slotOf(predicted)];
  if (g === null || p === null) return [];
  const goldDb = gold.state.slots[g];
  const predictedDb = predicted.state.slots[p];
  return diffFromBase(goldDb, predictedDb)
    .map((change) => ({
      db,
      path: change.path,
      gold: shown(valueAt(goldDb, change.path)),
      predicted: 'removed' in change ? null : shown(change.value),
    }))
    // A subtree both rewrote to the same content is no difference.
    .filter((d) => d.gold !== d.predicted);
};

/** The differences of the trajectory's final DBs from the gold ones; empty when they match. */
export const dbDifferences = (
  task: Task,
  trajectory: readonly Message[],
  ctx: Pick<EvaluationContext, 'domain' | 'data' | 'solo' | 'now'>,
): DbDifference[] => {
  const { predicted, gold } = predictedAndGold(task, trajectory, { ...ctx, strictReplay: false });
  return [
    ...slotDifferences('agent', gold, predicted, (e) => e.state.agentSlot),
    ...slotDifferences('user', gold, predicted, (e) => e.state.userSlot),
  ];
};

/** A simulation's differences as the API answers them, with its recorded DB verdict. */
export const simulationDbDiff = (
  task: Task,
  simulation: SimulationRun,
  ctx: Pick<EvaluationContext, 'domain' | 'data' | 'solo'>,
): DbDiff => ({
  simulation_id: simulation.id,
  db_match: simulation.reward_info?.db_check?.db_match ?? null,
  // The replay's clock only stamps what tools write; both sides read the same one, as in evaluation.
  differences: dbDifferences(task, simulation.messages ?? [], { ...ctx, now: () => simulation.end_time }).map((d) => ({ ...d, path: [...d.path] })),
});
