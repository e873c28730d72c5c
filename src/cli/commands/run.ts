// `tau2-edge run`: runs an evaluation with the reference's `tau2 run` flags and prints its metrics.
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import { RunConfigSchema } from '../../core/schemas/run-config.ts';
import { runBatch } from '../../core/runner/batch.ts';
import { computeMetrics, metricsAsDict } from '../../core/metrics/agent-metrics.ts';
import { systemClock } from '../../core/orchestrator/clock.ts';
import { loadDomain } from '../data.ts';
import { clientFor, parseLlmArgs } from '../models.ts';
import { formatMetrics, progressLine } from '../format.ts';

const gitCommit = (): string => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
};

const int = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number.parseInt(v, 10));

export const runCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values } = parseArgs({
    args: argv,
    options: {
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
      'llm-base-url': { type: 'string' },
      'enforce-communication-protocol': { type: 'boolean' },
    },
  });
  const solo = values.agent === 'llm_agent_solo';
  const config = RunConfigSchema.parse({
    domain: values.domain,
    agent: values.agent,
    llm_agent: values['agent-llm'],
    llm_args_agent: values['agent-llm-args'] && parseLlmArgs(values['agent-llm-args'], {}),
    user: values.user ?? (solo ? 'dummy_user' : undefined),
    llm_user: values['user-llm'],
    llm_args_user: values['user-llm-args'] && parseLlmArgs(values['user-llm-args'], {}),
    llm_judge: values['judge-llm'],
    llm_args_judge: values['judge-llm-args'] && parseLlmArgs(values['judge-llm-args'], {}),
    num_trials: int(values['num-trials']),
    num_tasks: int(values['num-tasks']),
    task_ids: values['task-ids']?.flatMap((v) => v.split(',')),
    task_split_name: values['task-split-name'],
    max_steps: int(values['max-steps']),
    max_errors: int(values['max-errors']),
    timeout: values.timeout === undefined ? undefined : Number(values.timeout),
    max_concurrency: int(values['max-concurrency']),
    seed: int(values.seed),
    max_retries: int(values['max-retries']),
    retry_delay: values['retry-delay'] === undefined ? undefined : Number(values['retry-delay']),
    enforce_communication_protocol: values['enforce-communication-protocol'],
  });
  const { domain, data, guidelines } = await loadDomain(config.domain);
  const client = clientFor(values['llm-base-url']);
  const started = Date.now();
  const results = await runBatch(config, {
    domain,
    data,
    guidelines,
    clients: { agent: client, user: client, judge: client },
    clock: systemClock,
    newId: randomUUID,
    sleep: (ms) => sleep(ms),
    gitCommit: gitCommit(),
    onSimulation: (sim, done, total) => out(progressLine(sim, done, total, started)),
    onAttemptError: (task, trial, error, attempt) =>
      out(`retry: task ${task.id} trial ${trial} attempt ${attempt} failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  out(formatMetrics(metricsAsDict(computeMetrics(results))));
  if (values['save-to']) {
    const file = values['save-to'].endsWith('.json') ? values['save-to'] : path.join(values['save-to'], 'results.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, dumpsPy(results as unknown as PyValue, { indent: 2 }));
    out(`results saved to ${file}`);
  }
  return 0;
};
