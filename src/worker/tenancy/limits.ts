// Operator limits on the work one request may start. Each is a wrangler var (a string; unset = the default
// here) so an operator can raise or lower it per deployment; a request over a limit gets a 4xx naming it.
// Provider calls of a run grow as episodes × (max_retries + 1) × max_steps × (num_retries + 1), so every
// factor is bounded.
import type { ApiIssue } from '../../api/index.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { PyValue } from '../../core/py/index.ts';
import { isPyFloat } from '../../core/py/index.ts';
import { bodyArgs } from '../../core/llm/ai-sdk-client.ts';
import { RUN_SIZE_LIMITS } from './run-size-limits.ts';

export const LIMIT_DEFAULTS = {
  /** Tasks × trials of one run. */
  LIMIT_MAX_EPISODES_PER_RUN: 10_000,
  LIMIT_MAX_TRIALS: 32,
  LIMIT_MAX_STEPS: 500,
  LIMIT_MAX_ERRORS: 100,
  /** Whole-simulation retries of an episode. */
  LIMIT_MAX_RETRIES: 10,
  LIMIT_MAX_CONCURRENCY: 100,
  LIMIT_MAX_RETRY_DELAY_SECONDS: 600,
  LIMIT_MAX_TIMEOUT_SECONDS: 86_400,
  /** `max_tokens` / `max_completion_tokens` in llm_args. */
  LIMIT_MAX_TOKENS: 32_768,
  /** `n` in llm_args: the engine reads one choice, so more only cost. */
  LIMIT_MAX_CHOICES: 1,
  /** `num_retries` / `max_retries` in llm_args (provider-call retries). */
  LIMIT_MAX_LLM_RETRIES: 10,
  /** Schedules one tenant keeps (its schedules quota may set fewer). */
  LIMIT_MAX_SCHEDULES: 100,
  /** Bytes of a request body; larger ones get 413. */
  LIMIT_MAX_BODY_BYTES: 1_048_576,
  /** Seconds an episode waits for an external agent's turn before it ends with termination_reason `timeout`. */
  LIMIT_EXTERNAL_TURN_TTL_SECONDS: 600,
  /** Seconds a step API request waits for its episode to answer (the other side's reply, the grading). */
  LIMIT_EPISODE_WAIT_SECONDS: 60,
  /** OpenEnv sockets one tenant keeps open at once; another upgrade gets 429. */
  LIMIT_MAX_SOCKETS_PER_TENANT: 64,
  /** Messages of one OpenEnv socket taken and not yet answered; another gets CAPACITY_REACHED. */
  LIMIT_MAX_SOCKET_QUEUE: 32,
  /** Their UTF-8 bytes (a message alone on its socket is always taken, to be checked against LIMIT_MAX_BODY_BYTES). */
  LIMIT_MAX_SOCKET_QUEUE_BYTES: 2_097_152,
} as const;

export type LimitName = keyof typeof LIMIT_DEFAULTS;

/** Why a configuration selects no work: a bad value, or more work than the operator allows. */
export interface Refusal {
  readonly ok: false;
  readonly code: 'invalid_request' | 'limit_exceeded';
  readonly issues: readonly ApiIssue[];
}
RUN_SIZE_LIMITS satisfies readonly LimitName[];
export type Limits = Record<LimitName, number>;

/** The limits in force: each var that holds a positive integer replaces its default. */
export const limits = (env: Env): Limits => {
  const vars = env as unknown as Partial<Record<LimitName, string>>;
  const out = { ...LIMIT_DEFAULTS } as Limits;
  for (const name of Object.keys(LIMIT_DEFAULTS) as LimitName[]) {
    const value = Number(vars[name]);
    if (vars[name] !== undefined && Number.isSafeInteger(value) && value > 0) out[name] = value;
  }
  return out;
};

const over = (path: string, value: number, limit: LimitName, max: number): ApiIssue => ({
  path,
  message: `${value} is over the operator limit ${limit} = ${max}`,
});

const numeric = (value: PyValue | undefined): number | null =>
  typeof value === 'number' ? value : isPyFloat(value) ? value.value : null;

/** Limits on one participant's llm_args: what reaches the provider (`extra_body` included) and litellm's retries. */
const llmArgsIssues = (path: string, args: Record<string, PyValue>, l: Limits): ApiIssue[] => {
  const issues: ApiIssue[] = [];
  const body = bodyArgs(args);
  const check = (key: string, value: unknown, limit: LimitName) => {
    const n = typeof value === 'number' ? value : null;
    if (n !== null && n > l[limit]) issues.push(over(`${path}.${key}`, n, limit, l[limit]));
  };
  check('n', body['n'], 'LIMIT_MAX_CHOICES');
  check('max_tokens', body['max_tokens'], 'LIMIT_MAX_TOKENS');
  check('max_completion_tokens', body['max_completion_tokens'], 'LIMIT_MAX_TOKENS');
  for (const key of ['num_retries', 'max_retries']) check(key, numeric(args[key]), 'LIMIT_MAX_LLM_RETRIES');
  return issues;
};

/** Every way the run configuration (with its `episodes` = tasks × trials) exceeds the operator limits. */
export const runLimitIssues = (config: RunConfig, episodes: number, l: Limits): ApiIssue[] => {
  const issues: ApiIssue[] = [];
  const bounded: [keyof RunConfig, number | null, LimitName][] = [
    ['num_trials', config.num_trials, 'LIMIT_MAX_TRIALS'],
    ['max_steps', config.max_steps, 'LIMIT_MAX_STEPS'],
    ['max_errors', config.max_errors, 'LIMIT_MAX_ERRORS'],
    ['max_retries', config.max_retries, 'LIMIT_MAX_RETRIES'],
    ['max_concurrency', config.max_concurrency, 'LIMIT_MAX_CONCURRENCY'],
    ['retry_delay', config.retry_delay, 'LIMIT_MAX_RETRY_DELAY_SECONDS'],
    ['timeout', config.timeout, 'LIMIT_MAX_TIMEOUT_SECONDS'],
  ];
  for (const [field, value, limit] of bounded) if (value !== null && value > l[limit]) issues.push(over(field, value, limit, l[limit]));
  if (episodes > l.LIMIT_MAX_EPISODES_PER_RUN) {
    issues.push({ path: 'num_trials', message: `the run has ${episodes} episodes (tasks × trials), over the operator limit LIMIT_MAX_EPISODES_PER_RUN = ${l.LIMIT_MAX_EPISODES_PER_RUN}` });
  }
  issues.push(
    ...llmArgsIssues('llm_args_agent', config.llm_args_agent, l),
    ...llmArgsIssues('llm_args_user', config.llm_args_user, l),
    ...llmArgsIssues('llm_args_judge', config.llm_args_judge, l),
  );
  return issues;
};
