// The public checks of a leaderboard trajectory file: it holds exactly the domain's `base` tasks, unchanged,
// each run num_trials times (reference: src/tau2/scripts/leaderboard/verify_trajectories_public.py).
import { pyDictHash, strRepr } from '../py/index.ts';
import type { PyInput } from '../py/index.ts';
import type { Results } from '../schemas/simulation.ts';
import type { Task } from '../schemas/task.ts';

export type CheckOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

const passed: CheckOutcome = { ok: true };

/** A Python set of str as repr prints it; sorted, since CPython's order changes with the hash seed. */
const setRepr = (items: readonly string[]): string => `{${[...items].sort().map(strRepr).join(', ')}}`;

/** The task as the reference hashes it (get_pydantic_hash: every field, defaults filled in). */
const taskHash = (task: Task): string => pyDictHash(task as unknown as PyInput);

/** `check_tasks`: the file's tasks are the domain's `base` split, each identical to the domain's own. */
export const checkTasks = (results: Results, baseTasks: readonly Task[]): CheckOutcome => {
  const domainTasks = new Map(baseTasks.map((t) => [t.id, t]));
  const resultsTasks = new Map(results.tasks.map((t) => [t.id, t]));
  const missing = [...domainTasks.keys()].filter((id) => !resultsTasks.has(id));
  const extra = [...resultsTasks.keys()].filter((id) => !domainTasks.has(id));
  if (missing.length > 0 || extra.length > 0) {
    const errors = [
      ...(missing.length > 0 ? [`Missing tasks: ${setRepr(missing)}`] : []),
      ...(extra.length > 0 ? [`Extra tasks: ${setRepr(extra)}`] : []),
    ];
    return { ok: false, error: errors.join('; ') };
  }
  const changed = [...domainTasks].filter(([id, task]) => taskHash(task) !== taskHash(resultsTasks.get(id)!));
  if (changed.length > 0) return { ok: false, error: `Task mismatches found in ${changed.length} tasks` };
  return passed;
};

/** `check_num_trials`: every task of the file has exactly num_trials simulations. */
export const checkNumTrials = (results: Results): CheckOutcome => {
  const counts = new Map<string, number>();
  for (const sim of results.simulations) counts.set(sim.task_id, (counts.get(sim.task_id) ?? 0) + 1);
  const wrong = new Set(results.tasks.map((t) => t.id).filter((id) => (counts.get(id) ?? 0) !== results.info.num_trials));
  if (wrong.size > 0) return { ok: false, error: `Incorrect trial counts for ${wrong.size} tasks` };
  return passed;
};
