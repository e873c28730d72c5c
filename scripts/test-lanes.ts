// Which vitest processes `npm test` starts (scripts/test-tiers.ts): the tiers named, in lanes that run side by
// side, each lane one process running its tiers one after another (their sequence.groupOrder in vitest.config.ts).
// Each tier has a lane of its own: unit and worker run code of their own, e2e mostly waits on the processes it starts
// (local workers, the CLI, Python, Chromium) and ops, one file at a time, on the operator scripts; side by side they
// keep both cores busy until the last lane ends, where a lane running two tiers one after the other outlasted the
// others by minutes. With vitest arguments (a filter, a reporter's output file) the tiers named run in one process,
// as those arguments concern them all.

export const LANES: readonly (readonly string[])[] = [['unit'], ['worker'], ['e2e'], ['ops']];
const TIERS = LANES.flat();

/**
 * The vitest projects of a tier, as `--project` filters: the tier's own and those named after it (`worker-isolated`,
 * the worker files that need a runtime of their own, beside `worker`).
 */
export const tierProjects = (tier: string): string[] => [tier, `${tier}-*`];

/** The tiers whose global setup builds the local worker's bundle and migrated database (vitest.config.ts's localState). */
const LOCAL_WORKER_TIERS: readonly string[] = ['e2e', 'ops'];

/** Whether a lane's vitest process builds the local worker (its bundle and database) before its files run. */
export const buildsLocalWorker = (lane: readonly string[]): boolean => lane.some((tier) => LOCAL_WORKER_TIERS.includes(tier));

export interface TestPlan {
  /** The tiers of each vitest process to start. */
  readonly lanes: readonly (readonly string[])[];
  /** Arguments that reach every process as they are. */
  readonly vitestArgs: readonly string[];
}

/** The plan of `npm test -- [TIER…] [vitest arguments]`: the leading bare words are tiers, every tier when none is. */
export const testPlan = (args: readonly string[]): TestPlan => {
  const tierCount = args.findIndex((arg) => !/^[a-z][a-z0-9-]*$/.test(arg));
  const named = tierCount === -1 ? args : args.slice(0, tierCount);
  const vitestArgs = args.slice(named.length);
  const tiers = named.length === 0 ? TIERS : named;
  if (vitestArgs.length > 0 || tiers.some((tier) => !TIERS.includes(tier))) return { lanes: [tiers], vitestArgs };
  return { lanes: LANES.map((lane) => lane.filter((tier) => tiers.includes(tier))).filter((lane) => lane.length > 0), vitestArgs };
};

export interface TestCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

/** The counts of a summary line (test/plain-summary-reporter.ts), or null for any other line. */
export const summaryCounts = (line: string): TestCounts | null => {
  const counts = SUMMARY.exec(line.trim());
  return counts === null ? null : { passed: Number(counts[1]), failed: Number(counts[2]), skipped: Number(counts[3] ?? 0) };
};

/** The summary line of counts, as the reporter prints it. */
export const summaryLine = ({ passed, failed, skipped }: TestCounts): string => `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
