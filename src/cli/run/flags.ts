// `tau2-edge run` flags (the reference's `tau2 run` flags, plus where to run) → the run configuration and the
// command's own options.
import { Command, InvalidArgumentError, Option } from 'commander';
import path from 'node:path';
import { RunConfigSchema } from '../../core/schemas/run-config.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import { DEFAULT_LLM } from '../../core/schemas/run-config.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { LLM_BASE_URL_DEFAULT, parseLlmArgs } from './models.ts';
import { float, int, parseOrExplain } from '../cli-command.ts';
import { domains, taskSetNames, taskSetRefusal } from '../../../domains/registry.ts';
import { repoRoot } from '../local/worker.ts';
import { addAutoReviewFlags, autoReviewFrom } from './auto-review.ts';
import type { AutoReview, AutoReviewFlagValues } from './auto-review.ts';
import { checkUserPersona } from './user-persona.ts';
import { apiBaseModelIssue } from '../../core/llm/api-base.ts';
import { modelArgsIssue } from '../../core/llm/native-client.ts';
import { modelRoute } from '../../core/llm/providers.ts';
import type { PyValue } from '../../core/py/index.ts';
import { cappedConcurrency, parseProviderLimits } from './provider-limits.ts';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS } from './log.ts';
import type { LogLevel } from './log.ts';
import type { LlmLogMode } from './llm-call-log.ts';
import { runRetrievalRefusal } from '../../core/environment/episode-domain.ts';
import { parsePyJson } from '../../core/py/index.ts';

export interface RunOptions {
  readonly config: RunConfig;
  /** The results file to write, in the reference's format (by default under data/simulations/). */
  readonly saveTo: string;
  /** Exit non-zero when the average reward is below this (CI gating). */
  readonly failUnder: number | null;
  /** A running tau2-edge API; without it the command starts the local worker. */
  readonly api: string | null;
  /** The OpenAI-compatible provider endpoint the episodes call. */
  readonly llmBaseUrl: string | null;
  /** Runs the engine inside this process instead of a worker (for machines without workerd). */
  readonly inProcess: boolean;
  /** `--auto-review`: the review of each simulation, or null. */
  readonly autoReview: AutoReview | null;
  /** Resumes an existing results file without asking. */
  readonly autoResume: boolean;
  readonly logLevel: LogLevel;
  /** Writes each simulation's model calls beside the results file (with --in-process). */
  readonly verboseLogs: boolean;
  readonly llmLogMode: LlmLogMode;
  /** `--target-ci-width` or `--compare-to … --until-resolved`: add trials in rounds until the answer is known. */
  readonly rounds: RoundsRequest | null;
}

/** What a run adding rounds aims at; `compareTo` is the results file of run A. */
export type RoundsRequest =
  | { readonly kind: 'ci_width'; readonly width: number; readonly maxTrials: number }
  | { readonly kind: 'resolved'; readonly compareTo: string; readonly maxTrials: number };

/** Trials per task a run adding rounds may reach at most, and by default. */
export const MAX_ROUND_TRIALS = 100;
const DEFAULT_MAX_TRIALS = 10;

/**
 * tau2's `--workers N` spawns N processes of `--max-concurrency` simulations each; tau2-edge runs every
 * simulation in one engine, so N only multiplies the run's concurrency.
 */
const MAX_WORKERS = 64;

/** The flags of `tau2-edge run`, declared once for parsing, help and did-you-mean. */
export const addRunFlags = (command: Command): Command =>
  exclusivePair(addAutoReviewFlags(addVoiceFlags(
    command
      .requiredOption('-d, --domain <domain>', 'the domain to run', (v: string) => choice('domain', v, Object.keys(domains)))
      .option('--agent <agent>', 'the agent: llm_agent, llm_agent_gt or llm_agent_solo (default: llm_agent); a2a with --agent-url, an A2A agent')
      .option('--agent-llm <model>', `the agent's model (default: ${DEFAULT_LLM})`)
      .option('--agent-llm-args <json>', "the agent model's arguments as JSON (default: {\"temperature\": 0.0}); \"api_base\": URL sends this role's calls there")
      .option('--user <user>', 'the user: user_simulator, or dummy_user (implied by llm_agent_solo)')
      .option('--user-llm <model>', `the user simulator's model (default: ${DEFAULT_LLM})`)
      .option('--user-llm-args <json>', "the user model's arguments as JSON")
      .option('--judge-llm <model>', 'the model grading NL assertions')
      .option('--judge-llm-args <json>', "the judge model's arguments as JSON")
      .option('--num-trials <n>', 'trials per task (default: 1)', int)
      .option('--num-tasks <n>', 'run only the first N tasks', int)
      .option('--task-ids <ids...>', 'run only these tasks (space- or comma-separated)')
      .option('--task-set-name <name>', 'take the tasks from this task set of the registry (default: the domain\'s own)', (v: string) => choice('task set', v, taskSetNames))
      .option('--task-split-name <split>', 'the task split (default: base)')
      .option('--max-steps <n>', 'steps per simulation (default: 200)', int)
      .option('--max-errors <n>', 'tool errors per simulation (default: 10)', int)
      .option('--timeout <seconds>', 'wall time per simulation', float)
      .option('--max-concurrency <n>', 'simulations at once (default: 3)', int)
      .option('--seed <n>', 'the random seed (default: 300)', int)
      .option('--max-retries <n>', 'retries of a failed simulation (default: 3)', int)
      .option('--retry-delay <seconds>', 'delay between retries (default: 1.0)', float)
      .option('--save-to <path>', 'the results file (NAME.json, or a folder for NAME/results.json); default: data/simulations/<timestamp>_<domain>_<agent>_<user>/results.json; an existing one is resumed (asked on a terminal, else --auto-resume)')
      .option('--fail-under <reward>', 'exit 1 when the average reward is below this, or nothing was evaluated', float)
      .option('--enforce-communication-protocol', 'end the episode when the agent breaks the protocol')
      .option('--user-persona <json>', 'a user persona as JSON, e.g. \'{"verbosity": "minimal"}\' (checked; text mode does not use it, as in tau2)')
      .option('--xml-prompt', 'XML tags in the agent prompt (voice mode only in tau2: accepted, no effect in text mode)')
      .option('--no-xml-prompt', 'a plain agent prompt (voice mode only in tau2: accepted, no effect in text mode)')
      .option('--hallucination-retries <n>', 'retries on a user hallucination (default: 3; recorded in the run config, used by tau2 in voice mode only)', int)
      .option('--auto-resume', 'resume an existing --save-to file without asking')
      .option('--workers <n>', `as tau2's N worker processes each holding --max-concurrency: N × --max-concurrency simulations in flight (0: just --max-concurrency; at most ${MAX_WORKERS})`, int)
      .option('--provider-limit <caps>', 'simulations in flight per provider of the agent model, e.g. "openai=40,gemini=20"')
      .addOption(new Option('--log-level <level>', `the log records to print (default: ${DEFAULT_LOG_LEVEL})`).choices(LOG_LEVELS))
      .option('--verbose-logs', "write each simulation's model calls to <save dir>/artifacts/ (with --in-process)")
      .addOption(new Option('--llm-log-mode <mode>', "with --verbose-logs: every call, or the latest of each kind (default: latest)").choices(['all', 'latest']))
      .option(
        '--retrieval-config <name>',
        'the knowledge retrieval configuration (banking_knowledge; default: alltools)',
        (v: string) => choice('retrieval config', v, RETRIEVAL_CONFIG_CHOICES),
      )
      .option('--retrieval-config-kwargs <json>', 'retrieval settings as JSON, e.g. \'{"top_k": 10}\'')
      .option('--agent-url <url>', "a remote agent: each agent turn is POSTed to this URL as a chat-completions request (with --agent a2a: the A2A agent's URL)")
      .option('--agent-header <header...>', "a header for --agent-url, as 'Name: value' (repeatable; e.g. its key)")
      .option('--llm-base-url <url>', `an OpenAI-compatible provider endpoint (${LLM_BASE_URL_DEFAULT})`)
      .option('--no-prompt-cache', "don't ask Anthropic models to cache the system prompt and tools (\"prompt_cache\": false in their llm args)")
      .option('--api <url>', 'run on a tau2-edge API already serving, instead of a local worker')
      .option('--in-process', 'run the engine inside this process (for machines where workerd cannot start)')
      .option('--target-ci-width <width>', "add trials in rounds until the average reward's anytime-valid 95% CI is at most this wide, in (0, 1]", float)
      .option('--compare-to <results>', "with --until-resolved: run A's results file; this run (B) runs A's tasks")
      .option('--until-resolved', 'with --compare-to: add trials in rounds until the difference to A is resolved (anytime-valid test)')
      .option('--max-trials <n>', `with --target-ci-width or --until-resolved: trials per task at most (default: ${DEFAULT_MAX_TRIALS}, at most ${MAX_ROUND_TRIALS})`, int),
  )), 'xml-prompt', 'no-xml-prompt');

/** The reference's voice-mode flags: accepted by the parser only to answer clearly that voice is not supported. */
const VOICE_FLAGS = [
  'audio-native', 'audio-native-provider', 'audio-native-model', 'cascaded-config', 'tick-duration', 'max-steps-seconds',
  'speech-complexity', 'pcm-sample-rate', 'telephony-rate', 'wait-to-respond-other', 'wait-to-respond-self',
  'yield-when-interrupted', 'yield-when-interrupting', 'interruption-check-interval', 'integration-duration',
  'silence-annotation-threshold', 'audio-debug', 'audio-taps', 'reasoning-effort',
] as const;

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** A mutually exclusive pair, refused with argparse's words when both are given (reference: add_mutually_exclusive_group). */
const exclusivePair = (command: Command, a: string, b: string): Command => {
  let first: string | null = null;
  for (const flag of [a, b]) {
    command.on(`option:${flag}`, () => {
      if (first !== null && first !== flag) throw new Error(`argument --${flag}: not allowed with argument --${first}`);
      first = flag;
    });
  }
  return command;
};

const addVoiceFlags = (command: Command): Command => {
  for (const flag of VOICE_FLAGS) command.addOption(new Option(`--${flag} [value]`).hideHelp());
  return command.addHelpText('after', '\nVoice mode (--audio-native and its flags) is not supported: tau2-edge runs text mode.');
};

/** `--no-prompt-cache`: `prompt_cache: false` in the llm args of each role whose model is Anthropic's (the only provider asked to cache). */
const withoutPromptCache = (config: RunConfig): RunConfig => {
  const off = (model: string, args: RunConfig['llm_args_agent']) => (modelRoute(model).provider === 'anthropic' ? { ...args, prompt_cache: false } : args);
  return {
    ...config,
    llm_args_agent: off(config.llm_agent, config.llm_args_agent),
    llm_args_user: off(config.llm_user, config.llm_args_user),
    llm_args_judge: off(config.llm_judge, config.llm_args_judge),
  };
};

/** The parsed flags of `tau2-edge run` (commander's camel-cased names). */
export interface RunFlagValues extends AutoReviewFlagValues {
  readonly domain: string;
  readonly agent?: string;
  readonly agentLlm?: string;
  readonly agentLlmArgs?: string;
  readonly user?: string;
  readonly userLlm?: string;
  readonly userLlmArgs?: string;
  readonly judgeLlm?: string;
  readonly judgeLlmArgs?: string;
  /** false with --no-prompt-cache. */
  readonly promptCache?: boolean;
  readonly numTrials?: number;
  readonly numTasks?: number;
  readonly taskIds?: string[];
  readonly taskSplitName?: string;
  readonly maxSteps?: number;
  readonly maxErrors?: number;
  readonly timeout?: number;
  readonly maxConcurrency?: number;
  readonly seed?: number;
  readonly maxRetries?: number;
  readonly retryDelay?: number;
  readonly saveTo?: string;
  readonly failUnder?: number;
  readonly enforceCommunicationProtocol?: boolean;
  readonly retrievalConfig?: string;
  readonly retrievalConfigKwargs?: string;
  readonly llmBaseUrl?: string;
  readonly agentUrl?: string;
  readonly agentHeader?: string[];
  readonly api?: string;
  readonly inProcess?: boolean;
  readonly taskSetName?: string;
  readonly userPersona?: string;
  readonly xmlPrompt?: boolean;
  readonly hallucinationRetries?: number;
  readonly autoResume?: boolean;
  readonly workers?: number;
  readonly providerLimit?: string;
  readonly logLevel?: LogLevel;
  readonly verboseLogs?: boolean;
  readonly llmLogMode?: LlmLogMode;
  readonly targetCiWidth?: number;
  readonly compareTo?: string;
  readonly untilResolved?: boolean;
  readonly maxTrials?: number;
}

/** The rounds asked for by --target-ci-width, --compare-to/--until-resolved and --max-trials, checked. */
const roundsFrom = (values: RunFlagValues, numTrials: number): RoundsRequest | null => {
  if (values.targetCiWidth !== undefined && values.compareTo !== undefined) throw new Error('--target-ci-width and --compare-to exclude each other');
  if ((values.compareTo !== undefined) !== (values.untilResolved === true)) throw new Error('--compare-to and --until-resolved go together');
  if (values.targetCiWidth === undefined && values.compareTo === undefined) {
    if (values.maxTrials !== undefined) throw new Error('--max-trials needs --target-ci-width or --until-resolved');
    return null;
  }
  const maxTrials = values.maxTrials ?? Math.max(DEFAULT_MAX_TRIALS, numTrials);
  if (!(maxTrials >= numTrials && maxTrials <= MAX_ROUND_TRIALS)) throw new Error(`--max-trials: ${maxTrials} is not between --num-trials (${numTrials}) and ${MAX_ROUND_TRIALS}`);
  if (values.compareTo !== undefined) return { kind: 'resolved', compareTo: values.compareTo, maxTrials };
  const width = values.targetCiWidth!;
  if (!(width > 0 && width <= 1)) throw new Error(`--target-ci-width: ${width} is not in (0, 1]`);
  return { kind: 'ci_width', width, maxTrials };
};

/** `--agent-header 'Name: value'` flags as a header record. */
const agentHeaders = (flags: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    flags.map((flag) => {
      const at = flag.indexOf(':');
      if (at <= 0) throw new Error(`--agent-header takes 'Name: value', got '${flag.split(':')[0]}…'`);
      return [flag.slice(0, at).trim(), flag.slice(at + 1).trim()];
    }),
  );

/** The reference's `--retrieval-config` choices: every configuration name, sorted. */
const RETRIEVAL_CONFIG_CHOICES = [
  ...new Set(Object.values(domains).flatMap((d) => d.episodeAssembly?.configNames ?? [])),
].sort();

/** A JSON flag value (the reference parses it with `json.loads`). */
const jsonFlag = (flag: string, text: string): unknown => {
  try {
    return parsePyJson(text);
  } catch (error) {
    throw new Error(`${flag} is not valid JSON: ${(error as Error).message}`);
  }
};

const choice = (flag: string, value: string, allowed: readonly string[]): string => {
  if (!allowed.includes(value)) throw new InvalidArgumentError(`unknown ${flag} '${value}'. Available: ${allowed.join(', ')}`);
  return value;
};

/** Where runs are saved without --save-to: `TAU2_EDGE_SIMULATIONS_DIR`, else data/simulations/ as the reference. */
export const simulationsDir = (): string => process.env.TAU2_EDGE_SIMULATIONS_DIR ?? path.join(repoRoot, 'data', 'simulations');

const lastSegment = (model: string): string => model.split('/').filter(Boolean).at(-1) ?? model;
const pad = (n: number): string => String(n).padStart(2, '0');

/** The reference's run name: `<YYYYMMDD_HHMMSS local time>_<domain>_<agent>_<agent model>_<user>_<user model>`. */
export const runName = (config: RunConfig, now: Date): string => {
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}_${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${stamp}_${config.domain}_${config.agent}_${lastSegment(config.llm_agent)}_${config.user}_${lastSegment(config.llm_user)}`;
};

/** `--save-to NAME` writes NAME/results.json, or NAME itself when it ends in .json. */
export const resultsPath = (saveTo: string): string => (saveTo.endsWith('.json') ? saveTo : path.join(saveTo, 'results.json'));

/** The run configuration and options from parsed flags; everything is validated before anything starts. */
export const runOptionsFrom = (values: RunFlagValues): RunOptions => {
  const voice = VOICE_FLAGS.filter((flag) => (values as unknown as Record<string, unknown>)[camel(flag)] !== undefined);
  if (voice.length > 0) throw new Error(`voice mode is not supported: tau2-edge runs text mode only (got ${voice.map((f) => `--${f}`).join(', ')})`);
  if (values.api !== undefined && values.inProcess) throw new Error('--api and --in-process exclude each other');
  if (values.userPersona !== undefined) checkUserPersona(values.userPersona);
  if (values.verboseLogs && !values.inProcess) {
    throw new Error("--verbose-logs writes the model calls made in this process: add --in-process (a worker's calls stay in the worker)");
  }
  const solo = values.agent === 'llm_agent_solo';
  const llmArgs = (flag: string, text: string | undefined) => (text === undefined ? undefined : parseLlmArgs(flag, text, {}));
  const parsed = parseOrExplain(RunConfigSchema, {
    domain: values.domain,
    agent: values.agent,
    llm_agent: values.agentLlm,
    llm_args_agent: llmArgs('--agent-llm-args', values.agentLlmArgs),
    user: values.user ?? (solo ? 'dummy_user' : undefined),
    llm_user: values.userLlm,
    llm_args_user: llmArgs('--user-llm-args', values.userLlmArgs),
    llm_judge: values.judgeLlm,
    llm_args_judge: llmArgs('--judge-llm-args', values.judgeLlmArgs),
    num_trials: values.numTrials,
    num_tasks: values.numTasks,
    task_set_name: values.taskSetName,
    task_ids: values.taskIds?.flatMap((v) => v.split(',')).filter((v) => v !== ''),
    task_split_name: values.taskSplitName,
    max_steps: values.maxSteps,
    max_errors: values.maxErrors,
    timeout: values.timeout,
    max_concurrency: values.maxConcurrency,
    seed: values.seed,
    max_retries: values.maxRetries,
    retry_delay: values.retryDelay,
    hallucination_retries: values.hallucinationRetries,
    enforce_communication_protocol: values.enforceCommunicationProtocol,
    retrieval_config: values.retrievalConfig,
    retrieval_config_kwargs: values.retrievalConfigKwargs === undefined ? undefined : jsonFlag('--retrieval-config-kwargs', values.retrievalConfigKwargs),
    agent_endpoint:
      values.agentUrl === undefined
        ? undefined
        : { url: values.agentUrl, ...(values.agentHeader === undefined ? {} : { headers: agentHeaders(values.agentHeader) }) },
  });
  const config = values.promptCache === false ? withoutPromptCache(parsed) : parsed;
  if (values.agentHeader !== undefined && values.agentUrl === undefined) throw new Error('--agent-header needs --agent-url');
  for (const [flag, model, args] of [
    ['--agent-llm-args', config.llm_agent, config.llm_args_agent],
    ['--user-llm-args', config.llm_user, config.llm_args_user],
    ['--judge-llm-args', config.llm_judge, config.llm_args_judge],
  ] as const) {
    const issue = apiBaseModelIssue(model, args as Record<string, PyValue>);
    if (issue !== null) throw new Error(`${flag}: ${issue}`);
    const argsIssue = modelArgsIssue(model, args as Record<string, PyValue>);
    if (argsIssue !== null) throw new Error(`${flag}: ${argsIssue.message}`);
  }
  const taskSetIssue = config.task_set_name === null ? null : taskSetRefusal(config.domain, config.task_set_name);
  if (taskSetIssue !== null) throw new Error(`--task-set-name: ${taskSetIssue}`);
  const providerLimits = values.providerLimit === undefined ? {} : parseProviderLimits(values.providerLimit);
  const workers = values.workers ?? 0;
  if (workers < 0 || workers > MAX_WORKERS) throw new Error(`--workers: ${workers} is not between 0 and ${MAX_WORKERS}`);
  const retrievalRefusal = runRetrievalRefusal(domains[config.domain]!, config);
  if (retrievalRefusal !== null) {
    throw new Error(`--${retrievalRefusal.field.replaceAll('_', '-')}: ${retrievalRefusal.message}`);
  }
  if ((isExternalAgent(config.agent) && config.agent !== 'a2a') || config.user === 'external_user') {
    const flag = config.user === 'external_user' ? `--user ${config.user}` : `--agent ${config.agent}`;
    throw new Error(`${flag} is driven by your own code over the step API (POST /v1/episodes, or a run's episodes); tau2-edge run runs built-in participants and --agent-url endpoints`);
  }
  return {
    config: { ...config, max_concurrency: cappedConcurrency({ ...config, max_concurrency: config.max_concurrency * Math.max(1, workers) }, providerLimits) },
    saveTo: resultsPath(values.saveTo ?? path.join(simulationsDir(), runName(config, new Date()))),
    failUnder: values.failUnder ?? null,
    api: values.api === undefined ? null : values.api.replace(/\/+$/, ''),
    llmBaseUrl: values.llmBaseUrl ?? null,
    inProcess: values.inProcess ?? false,
    autoReview: autoReviewFrom(values, values.llmBaseUrl ?? null),
    autoResume: values.autoResume ?? false,
    logLevel: values.logLevel ?? DEFAULT_LOG_LEVEL,
    verboseLogs: values.verboseLogs ?? false,
    llmLogMode: values.llmLogMode ?? 'latest',
    rounds: roundsFrom(values, config.num_trials),
  };
};

/** Parses `tau2-edge run` arguments (without the command name); a usage error throws its message. */
export const parseRunFlags = (argv: readonly string[]): RunOptions => {
  const command = addRunFlags(new Command('run'))
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  command.parse([...argv], { from: 'user' });
  return runOptionsFrom(command.opts<RunFlagValues>());
};
