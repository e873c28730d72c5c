// `tau2-edge fork RESULTS --sim ID --at K`: n continuations of one simulation from its step K (its first K turns
// kept: the same messages and databases), each continued under the run's configuration (or other agent or user
// models) and graded; their rewards are printed beside the source's, and saved as a results file. A results
// file's simulation is continued in this process; with --api, a simulation that API holds is forked there.
import path from 'node:path';
import { z } from 'zod';
import { MAX_FORKS } from '../../api/index.ts';
import { MAX_FORK_STEP, MAX_NAME_LENGTH } from '../../core/schemas/run-config.ts';
import { DEFAULT_SEED, trialSeeds } from '../../core/runner/seeds.ts';
import { defineCommand, int, parseOrExplain } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { loadResults, saveResults } from '../results-file.ts';
import { inProcessForker } from '../fork/in-process.ts';
import { forkThroughApi } from '../fork/remote.ts';
import { apiClient } from '../../client/index.ts';
import type { ForkRequest, Forked } from '../fork/remote.ts';
import { forkLines } from '../fork/lines.ts';
import { LLM_BASE_URL_DEFAULT } from '../run/models.ts';

const ForkFlagsSchema = z.object({
  '--sim': z.string().min(1).max(MAX_NAME_LENGTH),
  '--at': z.number().int().min(0).max(MAX_FORK_STEP),
  '--n': z.number().int().min(1).max(MAX_FORKS),
  '--agent-llm': z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  '--user-llm': z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  '--seed': z.number().int().optional(),
  '--llm-base-url': z.url().optional(),
  '--api': z.url().optional(),
  '--save-to': z.string().min(1).optional(),
});
type ForkFlags = z.infer<typeof ForkFlagsSchema>;

const requestOf = (flags: ForkFlags): ForkRequest => ({
  sim: flags['--sim'],
  at: flags['--at'],
  n: flags['--n'],
  ...(flags['--agent-llm'] ? { agentLlm: flags['--agent-llm'] } : {}),
  ...(flags['--user-llm'] ? { userLlm: flags['--user-llm'] } : {}),
  ...(flags['--seed'] === undefined ? {} : { seed: flags['--seed'] }),
  ...(flags['--save-to'] ? { saveTo: flags['--save-to'] } : {}),
});

/** Commander's values: the request's names, with the flags that choose where it runs. */
interface ForkFlagValues extends ForkRequest {
  readonly llmBaseUrl?: string;
  readonly api?: string;
  readonly inProcess?: boolean;
}

/** A results file's simulation, continued here; the continuations' seeds are a run's n trial seeds, as the API's fork group draws them. */
const forkInProcess = async (file: string, request: ForkRequest, llmBaseUrl: string | undefined): Promise<Forked> => {
  const results = await loadResults(file);
  const source = results.simulations.find((s) => s.id === request.sim);
  if (source === undefined) throw new Error(`--sim: no simulation ${request.sim} in ${file}`);
  const forker = await inProcessForker(results, {
    ...(request.agentLlm ? { agentLlm: request.agentLlm } : {}),
    ...(request.userLlm ? { userLlm: request.userLlm } : {}),
    ...(llmBaseUrl ? { llmBaseUrl } : {}),
  });
  const { at } = request;
  const seeds = trialSeeds(request.seed ?? results.info.seed ?? DEFAULT_SEED, request.n);
  const continuations = await Promise.all(seeds.map((seed) => forker.continueFrom(source, at, seed)));
  const task = results.tasks.filter((t) => t.id === source.task_id);
  return {
    source,
    results: { ...results, tasks: task, simulations: continuations },
    saveTo: request.saveTo ?? path.join(path.dirname(file), `${path.basename(file, '.json')}_fork_${at}.json`),
  };
};

export const forkCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'fork',
    "continue one simulation from its step K, n times, and print the continuations' rewards beside its own",
    [
      'fork runs/airline.json --sim 3f2a9c1e --at 12 --n 8',
      'fork runs/mock.json --sim 3f2a9c1e --at 0 --user-llm gpt-4.1 --save-to runs/mock-forks.json',
      'fork --api https://tau2.example.workers.dev --sim 3f2a9c1e --at 4 --n 8',
    ],
    (command) =>
      command
        .argument('[results]', "a results file (either format) holding the simulation; none with --api, whose simulation it is")
        .requiredOption('--sim <id>', 'the simulation to fork')
        .requiredOption('--at <k>', "the step the continuations start at: the source's first K turns are kept (0: right after the opening)", int)
        .option('--n <n>', `how many continuations (at most ${MAX_FORKS})`, int, 1)
        .option('--agent-llm <model>', "the continuations' agent model (default: the run's)")
        .option('--user-llm <model>', "the continuations' user-simulator model (default: the run's)")
        .option('--seed <seed>', "the seed the continuations' seeds are drawn from, as a run's trials' (default: the run's)", int)
        .option('--llm-base-url <url>', `an OpenAI-compatible provider endpoint (${LLM_BASE_URL_DEFAULT})`)
        .option('--in-process', "continue a results file's simulation in this process (the default: the state at step K is rebuilt by replaying its tool calls)")
        .option('--api <url>', 'fork a simulation this tau2-edge API holds, there (key: TAU2_EDGE_API_KEY)')
        .option('--save-to <file>', 'where to save the continuations (default: <results>_fork_<K>.json beside the file; fork_<sim>_<K>.json with --api)'),
    async (file: string | undefined, values: ForkFlagValues) => {
      const flags = parseOrExplain(ForkFlagsSchema, {
        '--sim': values.sim,
        '--at': values.at,
        '--n': values.n,
        '--agent-llm': values.agentLlm,
        '--user-llm': values.userLlm,
        '--seed': values.seed,
        '--llm-base-url': values.llmBaseUrl,
        '--api': values.api,
        '--save-to': values.saveTo,
      });
      if (flags['--api'] !== undefined && (file !== undefined || values.inProcess)) throw new Error('--api forks a simulation the API holds: give no results file and no --in-process');
      if (flags['--api'] === undefined && file === undefined) throw new Error('a results file holding the simulation is needed (or --api URL for a simulation an API holds)');
      const request = requestOf(flags);
      const forked = file === undefined ? await forkThroughApi(apiClient(flags['--api']!, process.env.TAU2_EDGE_API_KEY), request) : await forkInProcess(file, request, flags['--llm-base-url']);
      for (const line of forkLines(forked.source, flags['--at'], forked.results.simulations)) ctx.out(line);
      await saveResults(forked.saveTo, forked.results);
      ctx.out(`continuations saved to ${forked.saveTo}`);
      return 0;
    },
  );
