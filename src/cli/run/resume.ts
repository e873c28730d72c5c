// Resuming a run from its results file (reference: runner/checkpoint.py try_resume): the simulations it holds are
// kept and skipped, except infrastructure errors, which run again; tasks added since are run, tasks removed or
// changed since refuse the resume; a changed run configuration (info, policy aside) is shown before going on.
import { access } from 'node:fs/promises';
import { confirm } from '@inquirer/prompts';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import type { Info, Results } from '../../core/schemas/simulation.ts';
import type { Task } from '../../core/schemas/task.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { trialSeeds } from '../../core/runner/seeds.ts';
import { pendingUnits, runInfo, runTasks } from '../../core/runner/batch.ts';
import { loadDomain } from '../data.ts';
import { gitCommit } from './git-commit.ts';
import { loadResults } from '../results-file.ts';

export interface ResumePlan {
  /** The saved results without their infrastructure errors, with the tasks added since. */
  readonly kept: Results;
  /** The saved episodes this run leaves out. */
  readonly skip: RunConfig['skip_episodes'];
  /** The simulations left to run. */
  readonly pending: number;
  readonly addedTasks: readonly string[];
  readonly infraErrors: number;
  /** The info fields (policy aside) that differ from the saved run's, as `path: before -> after`. */
  readonly infoChanges: readonly string[];
}

const text = (value: unknown): string => dumpsPy(value as PyValue);

/** Info as the reference compares it: without the policy, which may change between runs. */
const comparable = (info: Info): Record<string, unknown> => ({ ...info, environment_info: { ...info.environment_info, policy: null } });

const changes = (before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((key) => {
    const [a, b] = [before[key], after[key]];
    if (text(a ?? null) === text(b ?? null)) return [];
    const nested = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (nested(a) && nested(b)) return changes(a, b, `${prefix}${key}.`);
    return [`${prefix}${key}: ${text(a ?? null)} -> ${text(b ?? null)}`];
  });

/** What resuming `saved` with this run's configuration, info and tasks means; refuses removed or changed tasks. */
export const planResume = (saved: Results, config: RunConfig, fresh: { readonly info: Info; readonly tasks: readonly Task[] }): ResumePlan => {
  const current = new Map(fresh.tasks.map((t) => [t.id, t]));
  const removed = saved.tasks.filter((t) => !current.has(t.id)).map((t) => t.id);
  if (removed.length > 0) {
    throw new Error(`Tasks were removed from the task set: ${removed.join(', ')}. Please delete the existing file or use a different save_to name.`);
  }
  const modified = saved.tasks.filter((t) => text(t) !== text(current.get(t.id))).map((t) => t.id);
  if (modified.length > 0) {
    throw new Error(`Tasks were modified: ${modified.join(', ')}. Please delete the existing file or use a different save_to name.`);
  }
  const savedIds = new Set(saved.tasks.map((t) => t.id));
  const added = fresh.tasks.filter((t) => !savedIds.has(t.id));
  const finished = saved.simulations.filter((s) => s.termination_reason !== 'infrastructure_error');
  // A saved simulation counts for this run when its trial's seed is this run's seed for that trial.
  const seeds = trialSeeds(config.seed, config.num_trials);
  const skip = finished
    .filter((s) => s.trial !== null && s.trial !== undefined && s.trial < seeds.length && s.seed === seeds[s.trial])
    .map((s) => ({ task_id: s.task_id, trial: s.trial! }));
  return {
    kept: { ...saved, tasks: [...saved.tasks, ...added], simulations: finished },
    skip,
    pending: pendingUnits({ ...config, skip_episodes: skip }, fresh.tasks).length,
    addedTasks: added.map((t) => t.id),
    infraErrors: saved.simulations.length - finished.length,
    infoChanges: changes(comparable(saved.info), comparable(fresh.info)),
  };
};

/** The resumed run's results: the saved ones kept, then this run's simulations in the order they finished. */
export const mergeResumed = (plan: ResumePlan, results: Results): Results => ({
  ...plan.kept,
  simulations: [...plan.kept.simulations, ...results.simulations],
});

/** A yes/no question on the terminal (the reference asks `(y/n)`; no is the default). */
const ask = (question: string): Promise<boolean> => confirm({ message: question, default: false });

const interactive = (): boolean => process.stdin.isTTY === true && process.stdout.isTTY === true;

/**
 * The resume of an existing results file at `saveTo`, or null when there is none. Without --auto-resume a
 * terminal is asked, and anything else refuses; a changed configuration is shown and, on a terminal, asked again.
 */
export const resumeSaved = async (
  saveTo: string,
  config: RunConfig,
  autoResume: boolean,
  out: (text: string) => void,
): Promise<ResumePlan | null> => {
  if (!(await access(saveTo).then(() => true, () => false))) return null;
  const refusal = `${saveTo} already exists; resume it with --auto-resume, or choose another --save-to (or move the file away)`;
  if (!autoResume && !(interactive() && (await ask(`File ${saveTo} already exists. Do you want to resume the run?`)))) throw new Error(refusal);
  const loaded = await loadDomain(config.domain);
  const plan = planResume(await loadResults(saveTo), config, { info: runInfo(config, { ...loaded, gitCommit: gitCommit() }), tasks: runTasks(config, loaded.data) });
  if (plan.infoChanges.length > 0) {
    out(`The run config has changed:\n${plan.infoChanges.map((c) => `  ${c}`).join('\n')}`);
    if (!autoResume && !(await ask('Do you want to resume the run?'))) {
      throw new Error('The run config has changed. Please delete the existing file or use a different save_to name.');
    }
  }
  out(
    `resuming ${saveTo}: ${plan.skip.length} simulation(s) already done` +
      (plan.infraErrors > 0 ? `, ${plan.infraErrors} infrastructure error(s) to run again` : '') +
      (plan.addedTasks.length > 0 ? `, ${plan.addedTasks.length} task(s) added` : ''),
  );
  return plan;
};
