// `tau2-edge view FILE|RUN [--sim ID] [--api URL]`: a results file, or a run of a tau2-edge API, with its
// metrics and simulations; `--sim` shows one simulation's conversation and reward checks.
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { stat } from 'node:fs/promises';
import { loadResults } from '../results-file.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { computeMetrics } from '../../core/metrics/agent-metrics.ts';
import { apiClient } from '../../client/index.ts';
import type { ApiClient } from '../../client/index.ts';
import { renderSimulation, runHeader, simulationsTable } from '../render.ts';
import { summaryTable } from '../summary.ts';
import { allFailedTasks, filterSimulations } from '../view-filter.ts';
import type { ViewFilter } from '../view-filter.ts';
import { usageTotals } from '../usage-totals.ts';



/** A results file, or a results folder in the reference's `dir` format. */
const isLocal = async (target: string): Promise<boolean> => (await stat(target).catch(() => null)) !== null;

const fromApi = async (client: ApiClient, runId: string, out: (text: string) => void): Promise<Results> => {
  const run = await client.run(runId);
  const c = run.counts;
  out(`run ${run.id} · ${run.status} · ${c.done}/${c.total} done (${c.passed} passed, ${c.failed} failed, ${c.infra_error} infra errors, ${c.running} running, ${c.pending} pending${c.cancelled > 0 ? `, ${c.cancelled} cancelled` : ''}) · created ${run.created_at}`);
  return client.results(runId);
};

interface ViewFlags extends ViewFilter {
  readonly sim?: string;
  readonly api?: string;
}

export const viewCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'view',
    "show a results file or an API's run: metrics, then the simulations",
    ['view data/simulations/run.json', 'view run.json --only-show-all-failed', 'view run.json --sim 3f2a…', 'view RUN_ID --api http://127.0.0.1:8787'],
    (command) =>
      command
        .argument('<target>', 'a results file, or a run id with --api')
        .option('--sim <id>', "one simulation's conversation and reward checks")
        .option('--api <url>', 'the tau2-edge API holding the run')
        .option('--only-show-failed', 'list only simulations with a reward below 1')
        .option('--only-show-all-failed', 'list only simulations of tasks where every trial failed'),
    (target: string, values: ViewFlags) => view(target, values, ctx.out),
  );

const view = async (target: string, values: ViewFlags, out: (text: string) => void): Promise<number> => {
  const client = values.api === undefined ? null : apiClient(values.api, process.env.TAU2_EDGE_API_KEY);
  let results: Results;
  if (await isLocal(target)) {
    results = await loadResults(target);
  } else if (client !== null) {
    if (values.sim) {
      out(renderSimulation(await client.simulation(values.sim)));
      return 0;
    }
    results = await fromApi(client, target, out);
  } else {
    throw new Error(`${target} is not a file; to view a run of an API give --api URL`);
  }
  if (values.sim) {
    const sim: SimulationRun | undefined = results.simulations.find((s) => s.id === values.sim);
    if (!sim) throw new Error(`No simulation ${values.sim} in ${target}`);
    out(renderSimulation(sim));
    return 0;
  }
  out(runHeader(results));
  out('');
  out(summaryTable(computeMetrics(results), usageTotals(results)));
  out('');
  out(simulationsTable(filterSimulations(results.simulations, values)));
  if (values.onlyShowAllFailed) out(`\nTotal number of failed tasks: ${allFailedTasks(results.simulations)}`);
  return 0;
};
