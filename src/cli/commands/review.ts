// `tau2-edge review PATH`: the LLM conversation review of a results file's simulations, as the reference's
// `tau2 review` (reference: src/tau2/scripts/review_conversation.py): each simulation's review attached where
// the reference attaches it, saved as results_reviewed.json beside the input (or -o), with the summary.
// `--repair` then repairs the user-simulator errors the review found (see review/repair.ts) and saves
// results_repaired.json instead, with the score as run beside the repaired one. With --api, a run that API holds
// is reviewed (and its simulations forked there).
import { access, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Option } from 'commander';
import { z } from 'zod';
import { computeMetrics } from '../../core/metrics/agent-metrics.ts';
import { costText } from '../../core/metrics/role-usage.ts';
import { DEFAULT_REVIEW_MODEL } from '../../core/review/reviewer.ts';
import type { Reviewer, ReviewMode } from '../../core/review/reviewer.ts';
import { recordedContext, selectForReview } from '../../core/review/review-run.ts';
import { terminalAsker } from '../ask.ts';
import { defineCommand, int, parseOrExplain } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { LLM_BASE_URL_DEFAULT, clientFor, missingCredentials } from '../run/models.ts';
import { loadResults, saveResults } from '../results-file.ts';
import { reviewResults } from '../review/results.ts';
import { repairSummary, reviewDetails, reviewSummary } from '../review/summary.ts';
import { summaryTable } from '../summary.ts';
import { repairResults } from '../review/repair.ts';
import { inProcessForker } from '../fork/in-process.ts';
import { apiForker } from '../fork/remote.ts';
import { apiClient } from '../../client/index.ts';
import type { Forker } from '../fork/in-process.ts';
import { DEFAULT_MAX_REPAIRS, repairTally } from '../../core/review/repair.ts';
import type { SimulationReview } from '../../core/review/reviewer.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { folderLoggedClient } from '../run/llm-call-log.ts';

const MAX_CONCURRENCY = 256;
const MAX_REPAIRS = 20;

/** The flags, keyed by their names so a refusal names the flag. */
const ReviewFlagsSchema = z.object({
  '--mode': z.enum(['full', 'user']),
  '--output': z.string().min(1).optional(),
  '--max-concurrency': z.number().int().min(1).max(MAX_CONCURRENCY),
  '--limit': z.number().int().min(1).optional(),
  '--task-ids': z.array(z.string().min(1).max(256)).max(10_000).optional(),
  '--review-model': z.string().min(1).max(256),
  '--llm-base-url': z.url().optional(),
  '--max-repairs': z.number().int().min(1).max(MAX_REPAIRS),
  '--api': z.url().optional(),
});

interface ReviewFlagValues {
  readonly mode: string;
  readonly output?: string;
  readonly maxConcurrency: number;
  readonly limit?: number;
  readonly taskIds?: string[];
  readonly reviewModel: string;
  readonly llmBaseUrl?: string;
  readonly showDetails?: boolean;
  readonly verbose?: boolean;
  readonly logLlm?: boolean;
  readonly repair?: boolean;
  readonly maxRepairs: number;
  readonly api?: string;
}

const exists = (p: string): Promise<boolean> => access(p).then(() => true, () => false);

/** A results file itself, else the results.json of each sub-folder, else the folder's own results.json. */
const findResultsFiles = async (target: string): Promise<string[]> => {
  const entries = await readdir(target, { withFileTypes: true }).catch(() => null);
  if (entries === null) return (await exists(target)) ? [target] : [];
  const nested = entries.filter((e) => e.isDirectory()).map((e) => path.join(target, e.name, 'results.json')).sort();
  const found = [];
  for (const file of nested) if (await exists(file)) found.push(file);
  if (found.length > 0) return found;
  const direct = path.join(target, 'results.json');
  return (await exists(direct)) ? [direct] : [];
};

type Out = (line: string) => void;

interface ReviewOptions {
  readonly mode: ReviewMode;
  readonly reviewer: Reviewer;
  readonly concurrency: number;
  readonly limit: number | null;
  readonly taskIds: readonly string[] | null;
  readonly showDetails: boolean;
  readonly logLlm: boolean;
  /** With --repair: the attempts per simulation; null: review only. */
  readonly maxRepairs: number | null;
}

/** Where the results come from, and where their simulations are forked to repair them. */
interface ReviewSource {
  readonly label: string;
  /** Where --log-llm writes llm_logs/. */
  readonly dir: string;
  readonly load: () => Promise<Results>;
  readonly forker: (results: Results) => Promise<Forker>;
}

/** A results file, whose simulations are forked in this process. */
const fileSource = (file: string, llmBaseUrl: string | undefined): ReviewSource => ({
  label: file,
  dir: path.dirname(file),
  load: () => loadResults(file),
  forker: (results) => inProcessForker(results, llmBaseUrl === undefined ? {} : { llmBaseUrl }),
});

/** A run an API holds (`--api`), whose simulations are forked there. */
const apiSource = (api: string, runId: string): ReviewSource => {
  const client = apiClient(api, process.env.TAU2_EDGE_API_KEY);
  return { label: `run ${runId} at ${api}`, dir: '.', load: () => client.results(runId), forker: async () => apiForker(client) };
};

const reviewFile = async (source: ReviewSource, reviewedFile: string, options: ReviewOptions, out: Out): Promise<void> => {
  if (await exists(reviewedFile)) {
    out(`\n⚠️  Reviewed results already exist: ${reviewedFile}`);
    const asker = terminalAsker(out);
    const overwrite = await asker.confirm('Do you want to overwrite?', false).finally(() => asker.close());
    if (!overwrite) {
      out('Aborted.');
      return;
    }
  }
  out(`\n📂 Loading results from: ${source.label}`);
  const { results, notes } = selectForReview(await source.load(), { taskIds: options.taskIds, limit: options.limit });
  for (const note of notes) out(note);
  // Refused before any review call when the run's models cannot be called from here.
  const forker = options.maxRepairs === null ? null : await source.forker(results);
  let { reviewer } = options;
  if (options.logLlm) {
    const dir = path.join(source.dir, 'llm_logs');
    await mkdir(dir, { recursive: true });
    out(`  LLM logs will be saved to: ${dir}`);
    reviewer = { ...reviewer, forCall: (callName, client) => folderLoggedClient(client, callName, dir) };
  }
  out(`\n🔍 Reviewing ${results.simulations.length} simulation(s) ...`);
  const reviews = new Map<string, SimulationReview>();
  const reviewed = await reviewResults(results, options.mode, reviewer, options.concurrency, {
    onReviewed: (simulation, outcome) => {
      reviews.set(simulation.id, outcome);
      if (options.showDetails) for (const line of reviewDetails(simulation.id, simulation.task_id, outcome)) out(line);
    },
    onError: (simulation, error) =>
      process.stderr.write(`Error reviewing simulation ${simulation.id}: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  const repaired = forker === null ? null : await repairFile(reviewed.results, reviews, { ...options, reviewer, forker }, out);
  await saveResults(reviewedFile, repaired?.results ?? reviewed.results);
  out(`\n💾 Saved ${repaired === null ? 'reviewed' : 'repaired'} results to: ${reviewedFile}`);
  // The reference's line; an unpriced reviewer is named instead of its recorded $0.
  out(`  Review cost: ${reviewed.usage.unpriced_models.length > 0 ? costText(reviewed.usage) : `$${reviewed.totals.cost.toFixed(4)}`}\n`);
  out(summaryTable(computeMetrics(reviewed.results)));
  out('');
  out(reviewSummary(options.mode, reviewed.totals, reviewed.usage));
  if (repaired !== null) out(repairSummary(results, repaired.results, repairTally(repaired.outcomes)));
};

/** Repairs the reviewed simulations whose review blames the user simulator, printing each repair's end. */
const repairFile = async (
  reviewed: Results,
  reviews: ReadonlyMap<string, SimulationReview>,
  options: ReviewOptions & { readonly reviewer: Reviewer; readonly forker: Forker },
  out: Out,
) => {
  out(`\n🔧 Repairing user-simulator errors (at most ${options.maxRepairs} attempt(s) each) ...`);
  return repairResults(reviewed, reviews, {
    mode: options.mode,
    reviewer: options.reviewer,
    context: recordedContext(reviewed),
    forker: options.forker,
    maxRepairs: options.maxRepairs!,
    concurrency: options.concurrency,
    onRepair: (outcome, id) => {
      if (outcome.kind === 'repaired') out(`  ${id}: repaired at step ${outcome.record.at_step} (${outcome.record.attempts} attempt(s)) → ${outcome.simulation.id}`);
      if (outcome.kind === 'not_repaired') out(`  ${id}: not repaired after ${outcome.record.attempts} attempt(s): ${outcome.reason}`);
    },
  });
};

export const reviewCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'review',
    "LLM conversation review of a results file's simulations (agent and user errors, authentication), saved as results_reviewed.json",
    [
      'review data/simulations/20261125_airline/results.json',
      'review data/simulations/ --mode user --review-model gpt-4.1 -c 8',
      'review runs/airline.json -o runs/airline_reviewed.json --task-ids 0 1 --show-details',
      'review runs/airline.json -m user --repair --max-repairs 3',
      'review 7c1d0e52 --api https://tau2.example.workers.dev -m user --repair',
    ],
    (command) =>
      command
        .argument('<path>', 'a results file (either format), or a folder of run folders holding results.json; with --api, a run id')
        .addOption(
          new Option('-m, --mode <mode>', "review mode: 'full' (agent and user, with authentication) or 'user' (user simulator only)")
            .choices(['full', 'user'])
            .default('full'),
        )
        .option('-o, --output <file>', 'where to save the reviewed results (a single results file only)')
        .option('--interruption-enabled', 'interruption was enabled (full-duplex simulations only; tau2-edge records none)')
        .option('--show-details', 'print each simulation\'s review as it finishes')
        .option('-v, --verbose', 'the same as --show-details')
        .option('-c, --max-concurrency <n>', `reviews at once (at most ${MAX_CONCURRENCY})`, int, 32)
        .option('--limit <n>', 'review only the first N simulations', int)
        .option('--task-ids <ids...>', 'review only the simulations of these tasks')
        .option('--review-model <model>', 'the reviewer model', DEFAULT_REVIEW_MODEL)
        .option('--log-llm', 'write each review call (request and response) into llm_logs/ beside the results file')
        .option('--llm-base-url <url>', `an OpenAI-compatible provider endpoint (${LLM_BASE_URL_DEFAULT})`)
        .option('--repair', 'fork each simulation just before the user turn its review blames on the simulator and continue it, until a continuation is free of such errors; saves results_repaired.json')
        .option('--max-repairs <n>', `with --repair: attempts per simulation (at most ${MAX_REPAIRS})`, int, DEFAULT_MAX_REPAIRS)
        .option('--api <url>', 'review a run this tau2-edge API holds (PATH is its id; with --repair its simulations are forked there); key: TAU2_EDGE_API_KEY'),
    async (target: string, values: ReviewFlagValues) => {
      const flags = parseOrExplain(ReviewFlagsSchema, {
        '--mode': values.mode,
        '--output': values.output,
        '--max-concurrency': values.maxConcurrency,
        '--limit': values.limit,
        '--task-ids': values.taskIds,
        '--review-model': values.reviewModel,
        '--llm-base-url': values.llmBaseUrl,
        '--max-repairs': values.maxRepairs,
        '--api': values.api,
      });
      const missing = missingCredentials([flags['--review-model']], flags['--llm-base-url'], process.env);
      if (missing !== null) throw new Error(missing);
      const options: ReviewOptions = {
        mode: flags['--mode'],
        reviewer: { client: clientFor(flags['--llm-base-url']), model: flags['--review-model'] },
        concurrency: flags['--max-concurrency'],
        limit: flags['--limit'] ?? null,
        taskIds: flags['--task-ids'] ?? null,
        showDetails: values.showDetails === true || values.verbose === true,
        logLlm: values.logLlm === true,
        maxRepairs: values.repair === true ? flags['--max-repairs'] : null,
      };
      const outputName = options.maxRepairs === null ? 'results_reviewed.json' : 'results_repaired.json';
      if (flags['--api'] !== undefined) {
        await reviewFile(apiSource(flags['--api'], target), flags['--output'] ?? `${target}_${outputName}`, options, ctx.out);
        return 0;
      }
      const files = await findResultsFiles(target);
      if (files.length === 0) {
        process.stderr.write(`No results.json files found in: ${target}\n`);
        return 1;
      }
      if (files.length > 1) {
        ctx.out(`\n📁 Found ${files.length} results files to review:`);
        files.forEach((f, i) => ctx.out(`  ${i + 1}. ${path.basename(path.dirname(f))}/results.json`));
        ctx.out('');
      }
      for (const [i, file] of files.entries()) {
        if (files.length > 1) ctx.out(`\n${'='.repeat(60)}\nProcessing (${i + 1}/${files.length}): ${path.basename(path.dirname(file))}\n${'='.repeat(60)}`);
        const output = files.length === 1 && flags['--output'] !== undefined ? flags['--output'] : path.join(path.dirname(file), outputName);
        await reviewFile(fileSource(file, flags['--llm-base-url']), output, options, ctx.out);
      }
      return 0;
    },
  );
