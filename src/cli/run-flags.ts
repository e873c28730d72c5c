// `tau2-edge run` flags (the reference's `tau2 run` flags, plus where to run) → the run configuration and the
// command's own options.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { RunConfigSchema } from '../core/schemas/run-config.ts';
import type { RunConfig } from '../core/schemas/run-config.ts';
import { parseLlmArgs } from './models.ts';

export interface RunOptions {
  readonly config: RunConfig;
  /** The results file to write, in the reference's format. */
  readonly saveTo: string | null;
  /** A running tau2-edge API; without it the command starts the local worker. */
  readonly api: string | null;
  /** The OpenAI-compatible provider endpoint the episodes call. */
  readonly llmBaseUrl: string | null;
  /** Runs the engine inside this process instead of a worker (for machines without workerd). */
  readonly inProcess: boolean;
}

const RUN_FLAGS = {
  domain: { type: 'string', short: 'd' },
  agent: { type: 'string' },
  'agent-llm': { type: 'string' },
  'agent-llm-args': { type: 'string' },
  user: { type: 'string' },
  'user-llm': { type: 'string' },
  'user-llm-args': { type: 'string' },
  'judge-llm': { type: 'string' },
  'judge-llm-args': { type: 'string' },
  'num-trials': { type: 'string' },
  'num-tasks': { type: 'string' },
  'task-ids': { type: 'string', multiple: true },
  'task-split-name': { type: 'string' },
  'max-steps': { type: 'string' },
  'max-errors': { type: 'string' },
  timeout: { type: 'string' },
  'max-concurrency': { type: 'string' },
  seed: { type: 'string' },
  'max-retries': { type: 'string' },
  'retry-delay': { type: 'string' },
  'save-to': { type: 'string' },
  'enforce-communication-protocol': { type: 'boolean' },
  'llm-base-url': { type: 'string' },
  api: { type: 'string' },
  'in-process': { type: 'boolean' },
} as const;

/** `--task-ids a b c` (argparse `nargs="+"`) as `--task-ids a --task-ids b --task-ids c`. */
export const spreadTaskIds = (argv: readonly string[]): string[] => {
  const out: string[] = [];
  let inTaskIds = false;
  for (const arg of argv) {
    if (arg === '--task-ids') {
      inTaskIds = true;
      continue;
    }
    if (arg.startsWith('-')) inTaskIds = false;
    out.push(...(inTaskIds ? ['--task-ids', arg] : [arg]));
  }
  return out;
};

const integer = (flag: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw new Error(`--${flag}: invalid int value: '${text}'`);
  return Number.parseInt(text, 10);
};

const float = (flag: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`--${flag}: invalid float value: '${text}'`);
  return value;
};

/** `--save-to NAME` writes NAME/results.json, or NAME itself when it ends in .json. */
export const resultsPath = (saveTo: string): string => (saveTo.endsWith('.json') ? saveTo : path.join(saveTo, 'results.json'));

export const parseRunFlags = (argv: readonly string[]): RunOptions => {
  const { values } = parseArgs({ args: spreadTaskIds(argv), options: RUN_FLAGS, strict: true });
  if (values.domain === undefined) throw new Error('the following arguments are required: --domain/-d');
  if (values.api !== undefined && values['in-process']) throw new Error('--api and --in-process exclude each other');
  const solo = values.agent === 'llm_agent_solo';
  const config = RunConfigSchema.parse({
    domain: values.domain,
    agent: values.agent,
    llm_agent: values['agent-llm'],
    llm_args_agent: values['agent-llm-args'] === undefined ? undefined : parseLlmArgs(values['agent-llm-args'], {}),
    user: values.user ?? (solo ? 'dummy_user' : undefined),
    llm_user: values['user-llm'],
    llm_args_user: values['user-llm-args'] === undefined ? undefined : parseLlmArgs(values['user-llm-args'], {}),
    llm_judge: values['judge-llm'],
    llm_args_judge: values['judge-llm-args'] === undefined ? undefined : parseLlmArgs(values['judge-llm-args'], {}),
    num_trials: integer('num-trials', values['num-trials']),
    num_tasks: integer('num-tasks', values['num-tasks']),
    task_ids: values['task-ids']?.flatMap((v) => v.split(',')).filter((v) => v !== ''),
    task_split_name: values['task-split-name'],
    max_steps: integer('max-steps', values['max-steps']),
    max_errors: integer('max-errors', values['max-errors']),
    timeout: float('timeout', values.timeout),
    max_concurrency: integer('max-concurrency', values['max-concurrency']),
    seed: integer('seed', values.seed),
    max_retries: integer('max-retries', values['max-retries']),
    retry_delay: float('retry-delay', values['retry-delay']),
    enforce_communication_protocol: values['enforce-communication-protocol'],
  });
  return {
    config,
    saveTo: values['save-to'] === undefined ? null : resultsPath(values['save-to']),
    api: values.api === undefined ? null : values.api.replace(/\/+$/, ''),
    llmBaseUrl: values['llm-base-url'] ?? null,
    inProcess: values['in-process'] ?? false,
  };
};
