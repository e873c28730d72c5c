// The telecom task splits of `split_tasks.json`: `small` and `full` from the released tasks, and the `base`
// benchmark sample (at most 3 tasks per family, issue count and persona) divided into `train` and `test`
// (reference: create_tasks.py with its default seed 42; train/test by a seed-0 shuffle, as for the other domains).
import { PyRandom, compareStrings, dumpsPy } from '../../../src/core/py/index.ts';
import type { GeneratedTask } from './build-task.ts';
import { isWithheld, releasedTasks, singleIssueTasks } from './generate.ts';
import { parseTaskId } from './task-id.ts';

const BASE_SEED = 42;
const MAX_PER_BIN = 3;
const TRAIN_TEST_SEED = 0;
const TRAIN_SHARE = 0.65;

export interface TelecomSplits {
  readonly small: string[];
  readonly train: string[];
  readonly test: string[];
  readonly full: string[];
  readonly base: string[];
}

/**
 * The base sample, in sampling order: bins of multi-issue tasks by (family, issue count, persona) in
 * first-seen order, up to 3 drawn from each, then the withheld tasks dropped.
 */
export const sampleBase = (composed: readonly GeneratedTask[]): string[] => {
  const bins = new Map<string, string[]>();
  for (const { id } of composed) {
    const { family, issues, persona } = parseTaskId(id)!;
    if (issues.length < 2) continue;
    const key = `${family} ${issues.length} ${persona}`;
    bins.set(key, [...(bins.get(key) ?? []), id]);
  }
  const random = new PyRandom(BASE_SEED);
  return [...bins.values()]
    .flatMap((ids) => random.sample(ids, Math.min(MAX_PER_BIN, ids.length)))
    .filter((id) => !isWithheld(id));
};

/** 65% of the base sample, shuffled with seed 0, trains; the rest tests. Each list is sorted. */
const divide = (base: readonly string[]): { train: string[]; test: string[] } => {
  const shuffled = [...base];
  new PyRandom(TRAIN_TEST_SEED).shuffle(shuffled);
  const trainSize = Math.floor(shuffled.length * TRAIN_SHARE);
  return {
    train: shuffled.slice(0, trainSize).sort(compareStrings),
    test: shuffled.slice(trainSize).sort(compareStrings),
  };
};

/** The splits of the composed tasks (withheld ones included, as generated). */
export const telecomSplits = (composed: readonly GeneratedTask[]): TelecomSplits => {
  const released = releasedTasks(composed);
  const { train, test } = divide(sampleBase(composed));
  return {
    small: singleIssueTasks(released).map((t) => t.id),
    train,
    test,
    full: released.map((t) => t.id),
    base: [...train, ...test],
  };
};

/** The text of `split_tasks.json`: Python's `json.dumps(splits, indent=4)`. */
export const splitsFileText = (splits: TelecomSplits): string => dumpsPy({ ...splits }, { indent: 4 });
