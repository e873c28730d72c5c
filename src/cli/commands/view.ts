// `tau2-edge view [FILE|RUN] [--sim ID] [--api URL]`: a results file (either format), or a run of a tau2-edge API,
// with its metrics and simulations; `--sim` (an id or a unique prefix of one) shows one simulation's conversation
// and reward checks. Without a target it lists the runs saved under data/simulations. On a terminal (stdin and
// stdout both TTYs) and without --sim, it is an interactive browser instead (view-browser.ts).
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { simulationsDir } from '../run-flags.ts';
import { loadResults } from '../results-file.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { computeMetrics } from '../../core/metrics/agent-metrics.ts';
import { apiClient } from '../../client/index.ts';
import type { ApiClient } from '../../client/index.ts';
import { renderSimulation, runHeader, simulationsTable } from '../render.ts';
import { summaryTable } from '../summary.ts';
import { allFailedTasks, filterSimulations } from '../view-filter.ts';
import type { ViewFilter } from '../view-filter.ts';
import { resultsUsage } from '../../core/metrics/role-usage.ts';
import { startWebView } from '../web-view.ts';
import { browseRuns } from '../view-browser.ts';
import type { BrowserIo, SavedRun } from '../view-browser.ts';

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
  readonly web?: boolean;
  readonly compareTo?: string[];
  readonly port?: string;
  readonly reasoning?: boolean;
}

export const viewCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'view',
    "show a results file or an API's run: metrics, then the simulations",
    [
      'view data/simulations/run.json',
      'view run.json --only-show-all-failed',
      'view run.json --sim 3f2a…',
      'view RUN_ID --api http://127.0.0.1:8787',
      'view run.json --web --compare-to other.json',
    ],
    (command) =>
      command
        .argument('[target]', 'a results file or folder, or a run id with --api (default: list the saved runs)')
        .option('--sim <id>', "one simulation's conversation and reward checks (an id or a unique prefix)")
        .option('--reasoning', "with --sim: each turn's reasoning in full (by default one line of it)")
        .option('--api <url>', 'the tau2-edge API holding the run')
        .option('--only-show-failed', 'list only simulations with a reward below 1')
        .option('--only-show-all-failed', 'list only simulations of tasks where every trial failed')
        .option('--web', 'serve the web viewer over the results file(s) on 127.0.0.1 until interrupted')
        .option('--compare-to <file...>', 'with --web: more results files to show and compare')
        .option('--port <n>', 'with --web: the port (default: a free one)'),
    (target: string | undefined, values: ViewFlags) => {
      if (values.web) return viewWeb(target, values, ctx.out);
      const io = { input: process.stdin, output: process.stdout, out: ctx.out };
      if (process.stdin.isTTY && process.stdout.isTTY && values.sim === undefined) return browse(target, values, io);
      return target === undefined ? listSaved(ctx.out) : view(target, values, ctx.out);
    },
  );

/** The web viewer over local files, until SIGINT or SIGTERM. */
const viewWeb = async (target: string | undefined, values: ViewFlags, out: (text: string) => void): Promise<number> => {
  if (target === undefined || !(await isLocal(target))) throw new Error('--web shows results files: give a results file or folder');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: ${values.port} is not a port number`);
  const web = await startWebView([target, ...(values.compareTo ?? [])], port);
  out(`web viewer on ${web.url} (Ctrl-C stops it)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await web.close();
  return 0;
};

/** The interactive browser over the saved runs, a results file, or an API's run. */
export const browse = async (target: string | undefined, values: ViewFlags, io: BrowserIo): Promise<number> => {
  if (target !== undefined && !(await isLocal(target))) {
    if (values.api === undefined) throw new Error(`${target} is not a file; to view a run of an API give --api URL`);
    const client = apiClient(values.api, process.env.TAU2_EDGE_API_KEY);
    await browseRuns([{ label: target, target }], (runId) => fromApi(client, runId, io.out), values, io);
    return 0;
  }
  const runs = target === undefined ? (await savedRuns()).filter((r) => r.results !== null) : [{ label: target, target }];
  if (runs.length === 0) {
    io.out(`no saved runs in ${simulationsDir()}`);
    return 0;
  }
  await browseRuns(runs, (file) => loadResults(file), values, io);
  return 0;
};

/** The runs saved under data/simulations (each results file or dir-format folder, by name), read if they parse. */
const savedRuns = async (): Promise<(SavedRun & { readonly results: Results | null })[]> => {
  const root = simulationsDir();
  const entries = (await readdir(root, { withFileTypes: true }).catch(() => [])).sort((a, b) => a.name.localeCompare(b.name));
  const targets = (
    await Promise.all(
      entries.map(async (e) => {
        const full = path.join(root, e.name);
        if (e.isFile() && e.name.endsWith('.json')) return full;
        if (e.isDirectory() && (await isLocal(path.join(full, 'results.json')))) return path.join(full, 'results.json');
        return null;
      }),
    )
  ).filter((t): t is string => t !== null);
  return Promise.all(
    targets.map(async (target) => {
      const results = await loadResults(target).catch(() => null);
      const name = path.relative(root, target);
      if (results === null) return { target, results, label: `${name}  (not a results file)` };
      const metrics = computeMetrics(results);
      const reward = metrics.total_simulations > 0 ? metrics.avg_reward.toFixed(4) : 'n/a';
      const { info } = results;
      return { target, results, label: `${name}  ${info.environment_info.domain_name} · ${info.agent_info.implementation} (${info.agent_info.llm ?? 'external'}) · ${results.simulations.length} simulations · avg reward ${reward}` };
    }),
  );
};

/** The saved runs, newest name last. */
const listSaved = async (out: (text: string) => void): Promise<number> => {
  const runs = await savedRuns();
  if (runs.length === 0) {
    out(`no saved runs in ${simulationsDir()}`);
    return 0;
  }
  out(`saved runs in ${simulationsDir()}:`);
  for (const run of runs) out(`  ${run.label}`);
  return 0;
};

/** The simulation an id or a unique prefix of one names. */
const simulationNamed = (simulations: readonly SimulationRun[], id: string, target: string): SimulationRun => {
  const exact = simulations.find((s) => s.id === id);
  if (exact) return exact;
  const matches = simulations.filter((s) => s.id.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new Error(`No simulation ${id} in ${target}`);
  throw new Error(`${id} names ${matches.length} simulations in ${target}: ${matches.slice(0, 5).map((s) => s.id).join(', ')}${matches.length > 5 ? ', …' : ''}`);
};

const view = async (target: string, values: ViewFlags, out: (text: string) => void): Promise<number> => {
  const client = values.api === undefined ? null : apiClient(values.api, process.env.TAU2_EDGE_API_KEY);
  let results: Results;
  if (await isLocal(target)) {
    results = await loadResults(target);
  } else if (client !== null) {
    if (values.sim) {
      out(renderSimulation(await client.simulation(values.sim), values.reasoning));
      return 0;
    }
    results = await fromApi(client, target, out);
  } else {
    throw new Error(`${target} is not a file; to view a run of an API give --api URL`);
  }
  if (values.sim) {
    out(renderSimulation(simulationNamed(results.simulations, values.sim, target), values.reasoning));
    return 0;
  }
  out(runHeader(results));
  out('');
  out(summaryTable(computeMetrics(results), resultsUsage(results)));
  out('');
  out(simulationsTable(filterSimulations(results.simulations, values)));
  if (values.onlyShowAllFailed) out(`\nTotal number of failed tasks: ${allFailedTasks(results.simulations)}`);
  return 0;
};
