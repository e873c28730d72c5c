// `tau2-edge fork RESULTS --sim ID --at K`: n continuations of one simulation of a results file from its step K
// (its first K turns kept: the same messages and databases), each continued under the run's configuration (or other agent or
// user models) and graded; their rewards are printed beside the source's, and saved as a results file.
import path from 'node:path';
import { z } from 'zod';
import { defineCommand, int, parseOrExplain } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { loadResults, saveResults } from '../results-file.ts';
import { inProcessForker } from '../fork/in-process.ts';
import { forkLines } from '../fork/lines.ts';
import { forkSeeds } from '../../core/runner/seeds.ts';
import { LLM_BASE_URL_DEFAULT } from '../run/models.ts';
import { MAX_NAME_LENGTH } from '../../core/schemas/run-config.ts';

/** The most continuations of one fork, as the API allows. */
export const MAX_FORKS = 64;

const ForkFlagsSchema = z.object({
  '--sim': z.string().min(1).max(MAX_NAME_LENGTH),
  '--at': z.number().int().min(0),
  '--n': z.number().int().min(1).max(MAX_FORKS),
  '--agent-llm': z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  '--user-llm': z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  '--llm-base-url': z.url().optional(),
  '--save-to': z.string().min(1).optional(),
});

interface ForkFlagValues {
  readonly sim: string;
  readonly at: number;
  readonly n: number;
  readonly agentLlm?: string;
  readonly userLlm?: string;
  readonly llmBaseUrl?: string;
  readonly saveTo?: string;
  readonly inProcess?: boolean;
}

export const forkCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'fork',
    "continue one simulation of a results file from its step K, n times, and print the continuations' rewards beside its own",
    [
      'fork runs/airline.json --sim 3f2a9c1e --at 12 --n 8 --in-process',
      'fork runs/mock.json --sim 3f2a9c1e --at 0 --user-llm gpt-4.1 --in-process --save-to runs/mock-forks.json',
    ],
    (command) =>
      command
        .argument('<results>', 'a results file (either format)')
        .requiredOption('--sim <id>', 'the simulation to fork')
        .requiredOption('--at <k>', "the step the continuations start at: the source's first K turns are kept (0: right after the opening)", int)
        .option('--n <n>', `how many continuations (at most ${MAX_FORKS})`, int, 1)
        .option('--agent-llm <model>', "the continuations' agent model (default: the run's)")
        .option('--user-llm <model>', "the continuations' user-simulator model (default: the run's)")
        .option('--llm-base-url <url>', `an OpenAI-compatible provider endpoint (${LLM_BASE_URL_DEFAULT})`)
        .option('--in-process', 'continue in this process (the state at step K is rebuilt by replaying the recorded tool calls)')
        .option('--save-to <file>', 'where to save the continuations (default: <results>_fork_<K>.json beside it)'),
    async (file: string, values: ForkFlagValues) => {
      const flags = parseOrExplain(ForkFlagsSchema, {
        '--sim': values.sim,
        '--at': values.at,
        '--n': values.n,
        '--agent-llm': values.agentLlm,
        '--user-llm': values.userLlm,
        '--llm-base-url': values.llmBaseUrl,
        '--save-to': values.saveTo,
      });
      if (values.inProcess !== true) throw new Error('--in-process: a results file\'s simulations are forked in this process; give --in-process');
      const results = await loadResults(file);
      const source = results.simulations.find((s) => s.id === flags['--sim']);
      if (source === undefined) throw new Error(`--sim: no simulation ${flags['--sim']} in ${file}`);
      const forker = await inProcessForker(results, {
        ...(flags['--agent-llm'] ? { agentLlm: flags['--agent-llm'] } : {}),
        ...(flags['--user-llm'] ? { userLlm: flags['--user-llm'] } : {}),
        ...(flags['--llm-base-url'] ? { llmBaseUrl: flags['--llm-base-url'] } : {}),
      });
      const at = flags['--at'];
      const continuations = await Promise.all(forkSeeds(source.seed, flags['--n']).map((seed) => forker.continueFrom(source, at, seed)));
      for (const line of forkLines(source, at, continuations)) ctx.out(line);
      const saveTo = flags['--save-to'] ?? path.join(path.dirname(file), `${path.basename(file, '.json')}_fork_${at}.json`);
      const task = results.tasks.filter((t) => t.id === source.task_id);
      await saveResults(saveTo, { ...results, tasks: task, simulations: continuations });
      ctx.out(`continuations saved to ${saveTo}`);
      return 0;
    },
  );
