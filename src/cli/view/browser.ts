// `tau2-edge view` on a terminal: an interactive browser, as the reference's `tau2 view` is — pick a saved run,
// see its metrics, pick a simulation, read its conversation and reward checks, then pick another or go back.
// Prompts are @inquirer/prompts menus (arrow keys and Enter; Ctrl-C leaves).
import { select } from '@inquirer/prompts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { renderSimulation, runHeader } from './render.ts';
import { resultsSummary } from '../summary.ts';
import { filterSimulations } from './filter.ts';
import type { ViewOptions } from './filter.ts';

export interface SavedRun {
  readonly label: string;
  readonly target: string;
}

export interface BrowserIo {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** Where the runs and simulations shown are written. */
  readonly out: (text: string) => void;
}

const BACK = '\u0000back';
const QUIT = '\u0000quit';

const isExit = (error: unknown): boolean => error instanceof Error && error.name === 'ExitPromptError';

const simulationLabel = (s: SimulationRun): string =>
  `${s.task_id} · trial ${s.trial ?? '-'} · ${s.termination_reason} · reward ${s.reward_info ? s.reward_info.reward.value.toFixed(1) : '-'}`;

/** One run: its metrics, then simulations until the person goes back (true) or quits (false). */
const browseRun = async (results: Results, filter: ViewOptions, io: BrowserIo, canGoBack: boolean): Promise<boolean> => {
  io.out(runHeader(results));
  io.out('');
  io.out(resultsSummary(results));
  const simulations = [...filterSimulations(results.simulations, filter)].sort(
    (a, b) => a.task_id.localeCompare(b.task_id) || (a.trial ?? 0) - (b.trial ?? 0),
  );
  let last: string | undefined;
  for (;;) {
    const choice = await select(
      {
        message: `${simulations.length} simulation(s): pick one to read`,
        choices: [
          ...simulations.map((s) => ({ name: simulationLabel(s), value: s.id })),
          ...(canGoBack ? [{ name: '← back to the runs', value: BACK }] : []),
          { name: 'quit', value: QUIT },
        ],
        ...(last === undefined ? {} : { default: last }),
      },
      { input: io.input, output: io.output },
    );
    if (choice === BACK) return true;
    if (choice === QUIT) return false;
    last = choice;
    io.out('');
    io.out(renderSimulation(simulations.find((s) => s.id === choice)!, { maxToolResultChars: filter.maxToolResultChars }));
    io.out('');
  }
};

/**
 * Browses one run (`runs` of one, shown at once) or lets the person pick among several; returns when they quit
 * or press Ctrl-C.
 */
export const browseRuns = async (
  runs: readonly SavedRun[],
  load: (target: string) => Promise<Results>,
  filter: ViewOptions,
  io: BrowserIo,
): Promise<void> => {
  try {
    if (runs.length === 1) {
      await browseRun(await load(runs[0]!.target), filter, io, false);
      return;
    }
    for (;;) {
      const target = await select(
        { message: `${runs.length} saved run(s): pick one`, choices: [...runs.map((r) => ({ name: r.label, value: r.target })), { name: 'quit', value: QUIT }] },
        { input: io.input, output: io.output },
      );
      if (target === QUIT || !(await browseRun(await load(target), filter, io, true))) return;
    }
  } catch (error) {
    if (!isExit(error)) throw error;
  }
};
