// `tau2-edge view [FILE|FOLDER|RUN] [--sim ID] [--api URL]`: a results file or a run's folder (either format), or
// a run of a tau2-edge API, with its metrics and simulations; `--sim` (an id or a unique prefix of one) shows one
// simulation's conversation and reward checks. A folder of runs (data/simulations without a target, or --dir) is
// listed, newest first. On a terminal (stdin and stdout both TTYs) and without --sim, it is an interactive browser
// instead (view-browser.ts). The reference's flags: --file, --dir, --max-tool-result-chars, --full-tool-results.
import { defineCommand, int } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { simulationsDir } from '../run/flags.ts';
import { loadResults } from '../results-file.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { computeMetrics } from '../../core/metrics/agent-metrics.ts';
import { apiClient } from '../../client/index.ts';
import type { ApiClient } from '../../client/index.ts';
import { MAX_TOOL_RESULT_CHARS, renderSimulation, runHeader, simulationsTable } from '../view/render.ts';
import { resultsSummary } from '../summary.ts';
import { infraErrorLines } from '../run/infra-errors.ts';
import { allFailedTasks, filterSimulations } from '../view/filter.ts';
import type { ViewFilter, ViewOptions } from '../view/filter.ts';
import { startWebView } from '../view/web.ts';
import { browseRuns } from '../view/browser.ts';
import type { BrowserIo, SavedRun } from '../view/browser.ts';

/** A results file, or a results folder in the reference's `dir` format. */
const isLocal = async (target: string): Promise<boolean> => (await stat(target).catch(() => null)) !== null;

/** A folder that is not one run's (it has no results.json): a folder of runs. */
const isFolderOfRuns = async (target: string): Promise<boolean> =>
  (await stat(target).then((s) => s.isDirectory(), () => false)) && !(await isLocal(path.join(target, 'results.json')));

const fromApi = async (client: ApiClient, runId: string, out: (text: string) => void): Promise<Results> => {
  const run = await client.run(runId);
  const c = run.counts;
  out(`run ${run.id} · ${run.status} · ${c.done}/${c.total} done (${c.passed} passed, ${c.failed} failed, ${c.infra_error} infra errors, ${c.running} running, ${c.pending} pending${c.cancelled > 0 ? `, ${c.cancelled} cancelled` : ''}) · created ${run.created_at}`);
  return client.results(runId);
};

interface ViewFlags extends ViewFilter {
  readonly file?: string;
  readonly dir?: string;
  readonly maxToolResultChars: number;
  readonly fullToolResults?: boolean;
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
      'view data/simulations/my-run/',
      'view --dir data/simulations',
      'view run.json --only-show-all-failed',
      'view run.json --sim 3f2a… --full-tool-results',
      'view run.json --sim 3f2a…',
      'view RUN_ID --api http://127.0.0.1:8787',
      'view run.json --web --compare-to other.json',
    ],
    (command) =>
      command
        .argument('[target]', "a results file, a run's folder, a folder of runs, or a run id with --api (default: list the saved runs)")
        .option('--file <path>', 'the results file (or run folder) to view, as the target')
        .option('--dir <folder>', `the folder of runs to list (default: ${path.relative(process.cwd(), simulationsDir()) || '.'})`)
        .option('--max-tool-result-chars <n>', 'cut tool results after this many characters (0: never)', int, MAX_TOOL_RESULT_CHARS)
        .option('--full-tool-results', 'show tool results whole')
        .option('--sim <id>', "one simulation's conversation and reward checks (an id or a unique prefix)")
        .option('--reasoning', "with --sim: each turn's reasoning in full (by default one line of it)")
        .option('--api <url>', 'the tau2-edge API holding the run')
        .option('--only-show-failed', 'list only simulations with a reward below 1')
        .option('--only-show-all-failed', 'list only simulations of tasks where every trial failed')
        .option('--web', 'serve the web viewer over the results file(s) on 127.0.0.1 until interrupted')
        .option('--compare-to <file...>', 'with --web: more results files to show and compare')
        .option('--port <n>', 'with --web: the port (default: a free one)'),
    async (argument: string | undefined, values: ViewFlags) => {
      if (argument !== undefined && values.file !== undefined && argument !== values.file) throw new Error(`view: give the results either as ${argument} or as --file ${values.file}, not both`);
      // No target: the folder of runs (--dir, else data/simulations).
      const target = argument ?? values.file ?? values.dir;
      if (values.web) return viewWeb(target, values, ctx.out);
      const io = { input: process.stdin, output: process.stdout, out: ctx.out };
      const options = viewOptions(values);
      if (process.stdin.isTTY && process.stdout.isTTY && values.sim === undefined) return browse(target, options, io);
      return target === undefined || (await isFolderOfRuns(target)) ? listSaved(target ?? simulationsDir(), ctx.out) : view(target, options, ctx.out);
    },
  );

type Options = Omit<ViewFlags, 'maxToolResultChars'> & ViewOptions;

/** The flags with the tool-result cut resolved (as the reference does: --full-tool-results or 0 shows them whole). */
const viewOptions = (values: ViewFlags): Options => ({
  ...values,
  maxToolResultChars: values.fullToolResults || values.maxToolResultChars <= 0 ? null : values.maxToolResultChars,
});

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
export const browse = async (target: string | undefined, values: Options, io: BrowserIo): Promise<number> => {
  if (target !== undefined && !(await isLocal(target))) {
    if (values.api === undefined) throw new Error(`${target} is not a file; to view a run of an API give --api URL`);
    const client = apiClient(values.api, process.env.TAU2_EDGE_API_KEY);
    await browseRuns([{ label: target, target }], (runId) => fromApi(client, runId, io.out), values, io);
    return 0;
  }
  const folder = target === undefined || (await isFolderOfRuns(target)) ? (target ?? simulationsDir()) : null;
  const runs = folder !== null ? (await savedRuns(folder)).filter((r) => r.results !== null) : [{ label: target!, target: target! }];
  if (runs.length === 0) {
    io.out(`no saved runs in ${folder}`);
    return 0;
  }
  await browseRuns(runs, (file) => loadResults(file), values, io);
  return 0;
};

/** The runs saved in the folder `root` (each results file or run folder, in either format), newest first, read if they parse. */
const savedRuns = async (root: string): Promise<(SavedRun & { readonly results: Results | null })[]> => {
  const entries = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new Error(`${root}: ${error.message}`);
  });
  const found = (
    await Promise.all(
      entries.map(async (e) => {
        const full = path.join(root, e.name);
        if (e.isFile() && e.name.endsWith('.json')) return full;
        if (e.isDirectory() && (await isLocal(path.join(full, 'results.json')))) return path.join(full, 'results.json');
        return null;
      }),
    )
  ).filter((t): t is string => t !== null);
  const modified = new Map(await Promise.all(found.map(async (t) => [t, (await stat(t)).mtimeMs] as const)));
  const targets = found.sort((a, b) => modified.get(b)! - modified.get(a)! || a.localeCompare(b));
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

/** The runs saved in the folder `root`, newest first. */
const listSaved = async (root: string, out: (text: string) => void): Promise<number> => {
  const runs = await savedRuns(root);
  if (runs.length === 0) {
    out(`no saved runs in ${root}`);
    return 0;
  }
  out(`saved runs in ${root}, newest first:`);
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

const view = async (target: string, values: Options, out: (text: string) => void): Promise<number> => {
  const client = values.api === undefined ? null : apiClient(values.api, process.env.TAU2_EDGE_API_KEY);
  let results: Results;
  if (await isLocal(target)) {
    results = await loadResults(target);
  } else if (client !== null) {
    if (values.sim) {
      out(renderSimulation(await client.simulation(values.sim), { maxToolResultChars: values.maxToolResultChars, wholeReasoning: values.reasoning ?? false }));
      return 0;
    }
    results = await fromApi(client, target, out);
  } else {
    throw new Error(`${target} is not a file; to view a run of an API give --api URL`);
  }
  if (values.sim) {
    out(renderSimulation(simulationNamed(results.simulations, values.sim, target), { maxToolResultChars: values.maxToolResultChars, wholeReasoning: values.reasoning ?? false }));
    return 0;
  }
  out(runHeader(results));
  out('');
  out(resultsSummary(results));
  for (const line of infraErrorLines(results.simulations)) out(line);
  out('');
  out(simulationsTable(filterSimulations(results.simulations, values)));
  if (values.onlyShowAllFailed) out(`\nTotal number of failed tasks: ${allFailedTasks(results.simulations)}`);
  return 0;
};
