// `tau2-edge run` flags → the run configuration sent to the API (the reference's `tau2 run` defaults).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { parseRunFlags, resultsPath, simulationsDir } from '../../src/cli/run/flags.ts';
import { localWorkerEnv } from '../../src/cli/run/remote.ts';
import { RUN_SIZE_LIMITS } from '../../src/worker/tenancy/run-size-limits.ts';
import { localCredentialsKey } from '../../src/cli/local/worker.ts';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dumpsPy } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { RunRequestSchema } from '../../src/api/index.ts';

describe('run flags', () => {
  it('only --domain: the reference defaults, a local worker, saved under data/simulations', () => {
    const { config, api, saveTo, inProcess, llmBaseUrl } = parseRunFlags(['--domain', 'mock']);
    expect(config).toMatchObject({
      domain: 'mock',
      agent: 'llm_agent',
      user: 'user_simulator',
      llm_agent: 'gpt-4.1-2025-04-14',
      num_trials: 1,
      num_tasks: null,
      task_ids: null,
      task_split_name: 'base',
      max_steps: 200,
      max_errors: 10,
      max_concurrency: 3,
      seed: 300,
      max_retries: 3,
    });
    expect([api, inProcess, llmBaseUrl]).toEqual([null, false, null]);
    expect(path.relative(simulationsDir(), saveTo)).toMatch(/^\d{8}_\d{6}_mock_llm_agent_gpt-4\.1-2025-04-14_user_simulator_gpt-4\.1-2025-04-14\/results\.json$/);
  });

  it('every reference flag maps to its config field; the body keeps 0.0 a float', () => {
    const { config, api, saveTo } = parseRunFlags([
      '-d', 'mock', '--agent-llm', 'gpt-4.1-mini', '--user-llm', 'gpt-4.1-nano', '--num-trials', '4', '--num-tasks', '2',
      '--task-split-name', 'base', '--max-concurrency', '8', '--seed', '7', '--save-to', 'out/run1', '--max-steps', '30',
      '--max-errors', '5', '--timeout', '60.5', '--retry-delay', '0', '--max-retries', '1', '--agent-llm-args', '{"temperature": 0.0}',
      '--enforce-communication-protocol', '--api', 'http://127.0.0.1:8787/',
    ]);
    expect(config).toMatchObject({
      llm_agent: 'gpt-4.1-mini', llm_user: 'gpt-4.1-nano', num_trials: 4, num_tasks: 2, max_concurrency: 8, seed: 7,
      max_steps: 30, max_errors: 5, timeout: 60.5, retry_delay: 0, max_retries: 1, enforce_communication_protocol: true,
    });
    expect(dumpsPy(config.llm_args_agent as PyValue)).toBe('{"temperature": 0.0}');
    expect(RunRequestSchema.safeParse(config).success).toBe(true);
    expect(api).toBe('http://127.0.0.1:8787');
    expect(saveTo).toBe('out/run1/results.json');
  });

  it('--task-ids takes several values, as argparse nargs="+", or repeated or comma-separated', () => {
    expect(parseRunFlags(['--domain', 'mock', '--task-ids', 'a', 'b', '--seed', '1']).config).toMatchObject({ task_ids: ['a', 'b'], seed: 1 });
    expect(parseRunFlags(['--domain', 'mock', '--task-ids', 'a', 'b', '--task-ids', 'c,d']).config.task_ids).toEqual(['a', 'b', 'c', 'd']);
  });

  it('llm_agent_solo runs with the dummy user', () => {
    expect(parseRunFlags(['--domain', 'mock', '--agent', 'llm_agent_solo']).config.user).toBe('dummy_user');
  });

  it('rejects what tau2 run rejects: no domain, non-integers, unknown flags; and --api with --in-process', () => {
    expect(() => parseRunFlags([])).toThrow('--domain');
    expect(() => parseRunFlags(['--domain', 'mock', '--num-trials', 'two'])).toThrow("invalid int value: 'two'");
    expect(() => parseRunFlags(['--domain', 'mock', '--num-trials', '0'])).toThrow(/num_trials/);
    expect(() => parseRunFlags(['--domain', 'mock', '--bogus'])).toThrow("unknown option '--bogus'");
    expect(() => parseRunFlags(['--domain', 'mok'])).toThrow("unknown domain 'mok'. Available: mock, airline");
    expect(() => parseRunFlags(['--domain', 'mock', '--api', 'http://x', '--in-process'])).toThrow('exclude');
  });

  it('refuses a credential in any --*-llm-args, naming the flag and the key; keeps legitimate args', () => {
    expect(() => parseRunFlags(['--domain', 'mock', '--agent-llm-args', '{"api_key": "sk-1"}'])).toThrow(/^--agent-llm-args: api_key is a credential; .*OPENAI_API_KEY/);
    expect(() => parseRunFlags(['--domain', 'mock', '--user-llm-args', '{"extra_headers": {"Authorization": "Bearer x"}}'])).toThrow(
      /^--user-llm-args: extra_headers\.Authorization is a credential/,
    );
    expect(() => parseRunFlags(['--domain', 'mock', '--judge-llm-args', '{"apiKey": "k"}'])).toThrow(/^--judge-llm-args: apiKey is a credential/);
    const args = { seed: 7, api_base: 'http://127.0.0.1:8000/v1', max_tokens: 64, extra_headers: { 'X-Trace': 't' } };
    expect(parseRunFlags(['--domain', 'mock', '--agent-llm-args', JSON.stringify(args)]).config.llm_args_agent).toEqual(args);
  });

  it('a .json --save-to is the file itself', () => {
    expect(resultsPath('r.json')).toBe('r.json');
  });

  it('the local worker gets the provider URL (flag over environment), the key, the commit, local endpoints and its sealing key, nothing else', () => {
    const env = { OPENAI_BASE_URL: 'http://env/v1', OPENAI_API_KEY: 'sk-x', HOME: '/root' };
    // On their own machine the user is the operator: the limits on a run's size and its sockets are lifted.
    const lifted = Object.fromEntries([...RUN_SIZE_LIMITS, 'LIMIT_MAX_SOCKETS_PER_TENANT'].map((name) => [name, String(Number.MAX_SAFE_INTEGER)]));
    const local = { GIT_COMMIT: 'abc123', ALLOW_LOCAL_PROVIDERS: 'true', CREDENTIALS_KEY: 'k', ...lifted };
    expect(localWorkerEnv('http://flag/v1', env, 'abc123', 'k')).toEqual({ ...local, OPENAI_BASE_URL: 'http://flag/v1', OPENAI_API_KEY: 'sk-x' });
    expect(localWorkerEnv(null, env, 'abc123', 'k').OPENAI_BASE_URL).toBe('http://env/v1');
    expect(localWorkerEnv(null, { HOME: '/root' }, 'abc123', 'k')).toEqual(local);
  });

  it("the local worker's sealing key is made once per state folder, owner-only, and kept", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-key-'));
    try {
      const key = await localCredentialsKey(dir);
      expect(Buffer.from(key, 'base64')).toHaveLength(32);
      expect(await localCredentialsKey(dir)).toBe(key);
      expect((await stat(path.join(dir, 'tau2-edge-credentials.key'))).mode & 0o777).toBe(0o600);
      expect(await localCredentialsKey(await mkdtemp(path.join(tmpdir(), 'tau2-edge-key-')))).not.toBe(key);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--agent-url and --agent-header: a remote agent endpoint; external agents are for the step API', () => {
    const { config } = parseRunFlags(['--domain', 'mock', '--agent-url', 'http://127.0.0.1:9/agent', '--agent-header', 'Authorization: Bearer k: v', '--agent-header', 'X-Team:  red ']);
    expect(config.agent_endpoint).toEqual({ url: 'http://127.0.0.1:9/agent', headers: { Authorization: 'Bearer k: v', 'X-Team': 'red' } });
    expect(parseRunFlags(['--domain', 'mock']).config.agent_endpoint).toBeNull();
    expect(() => parseRunFlags(['--domain', 'mock', '--agent-header', 'X: y'])).toThrow('--agent-header needs --agent-url');
    expect(() => parseRunFlags(['--domain', 'mock', '--agent-url', 'http://h/a', '--agent-header', 'novalue'])).toThrow("takes 'Name: value'");
    expect(() => parseRunFlags(['--domain', 'mock', '--agent', 'external'])).toThrow('POST /v1/episodes');
    expect(() => parseRunFlags(['--domain', 'mock', '--user', 'external_user'])).toThrow('--user external_user is driven by your own code');
  });

  it("--task-set-name: the registry's task sets; a domain runs its own (telecom and telecom-workflow share one), the others are refused with the reason", () => {
    expect(parseRunFlags(['--domain', 'mock']).config.task_set_name).toBeNull();
    expect(parseRunFlags(['--domain', 'telecom-workflow', '--task-set-name', 'telecom']).config.task_set_name).toBe('telecom');
    expect(parseRunFlags(['--domain', 'telecom', '--task-set-name', 'telecom-workflow']).config.task_set_name).toBe('telecom-workflow');
    expect(() => parseRunFlags(['--domain', 'telecom', '--task-set-name', 'telecom_full'])).toThrow(
      /--task-set-name: task set telecom_full cannot be loaded: the reference cannot load it .*TypeError.*--task-set-name telecom --task-split-name full/,
    );
    expect(() => parseRunFlags(['--domain', 'telecom', '--task-set-name', 'telecom_small'])).toThrow(/--task-split-name small/);
    expect(() => parseRunFlags(['--domain', 'airline', '--task-set-name', 'retail'])).toThrow("task set retail holds the retail domain's tasks, which the airline domain's tools and database cannot run");
    expect(parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', 'no_knowledge', '--task-set-name', 'banking_knowledge']).config.task_set_name).toBe('banking_knowledge');
    expect(() => parseRunFlags(['--domain', 'mock', '--task-set-name', 'banking_knowledge'])).toThrow("task set banking_knowledge holds the banking_knowledge domain's tasks");
    expect(() => parseRunFlags(['--domain', 'mock', '--task-set-name', 'mocks'])).toThrow("unknown task set 'mocks'. Available: mock, airline, retail, telecom, telecom-workflow, banking_knowledge, telecom_full");
  });

  it('--xml-prompt and --no-xml-prompt are a mutually exclusive pair, refused together as argparse refuses them', () => {
    expect(() => parseRunFlags(['--domain', 'mock', '--xml-prompt', '--no-xml-prompt'])).toThrow('argument --no-xml-prompt: not allowed with argument --xml-prompt');
    expect(() => parseRunFlags(['--domain', 'mock', '--no-xml-prompt', '--xml-prompt'])).toThrow('argument --xml-prompt: not allowed with argument --no-xml-prompt');
    expect(() => parseRunFlags(['--domain', 'mock', '--xml-prompt', '--xml-prompt'])).not.toThrow();
    expect(() => parseRunFlags(['--domain', 'mock', '--no-xml-prompt'])).not.toThrow();
  });

  it('--workers N gives N × --max-concurrency simulations in flight, as N tau2 worker processes would, under --provider-limit', () => {
    expect(parseRunFlags(['--domain', 'mock', '--max-concurrency', '4']).config.max_concurrency).toBe(4);
    expect(parseRunFlags(['--domain', 'mock', '--max-concurrency', '4', '--workers', '0']).config.max_concurrency).toBe(4);
    expect(parseRunFlags(['--domain', 'mock', '--max-concurrency', '4', '--workers', '3']).config.max_concurrency).toBe(12);
    expect(parseRunFlags(['--domain', 'mock', '--agent-llm', 'openai/gpt-4.1', '--max-concurrency', '4', '--workers', '3', '--provider-limit', 'openai=10']).config.max_concurrency).toBe(10);
    expect(() => parseRunFlags(['--domain', 'mock', '--workers', '65'])).toThrow('--workers: 65 is not between 0 and 64');
    expect(() => parseRunFlags(['--domain', 'mock', '--workers', '-1'])).toThrow(/--workers/);
  });

  it('--user-persona is checked as the reference checks it (values or weights) and, as in its text mode, not recorded', () => {
    const plain = parseRunFlags(['--domain', 'mock']).config;
    for (const persona of ['{"verbosity": "minimal"}', '{"verbosity": {"minimal": 0.8, "standard": 0.2}, "interrupt_tendency": null}', '{}', 'null', '{"mood": "cheerful"}']) {
      expect(parseRunFlags(['--domain', 'mock', '--user-persona', persona]).config).toEqual({ ...plain });
    }
    expect(() => parseRunFlags(['--domain', 'mock', '--user-persona', '{"verbosity": "chatty"}'])).toThrow(/invalid options:[\s\S]*verbosity/);
    expect(() => parseRunFlags(['--domain', 'mock', '--user-persona', '{"verbosity": {"minimal": 0}}'])).toThrow('Weights must add up to more than 0');
    expect(() => parseRunFlags(['--domain', 'mock', '--user-persona', '[1]'])).toThrow('--user-persona takes a JSON object');
    expect(() => parseRunFlags(['--domain', 'mock', '--user-persona', '{verbosity'])).toThrow('--user-persona takes a JSON object');
  });

  it('--xml-prompt and --no-xml-prompt are accepted and change nothing in text mode; --hallucination-retries is recorded (default 3)', () => {
    const plain = parseRunFlags(['--domain', 'mock']).config;
    expect(plain.hallucination_retries).toBe(3);
    expect(parseRunFlags(['--domain', 'mock', '--xml-prompt']).config).toEqual(plain);
    expect(parseRunFlags(['--domain', 'mock', '--no-xml-prompt']).config).toEqual(plain);
    expect(parseRunFlags(['--domain', 'mock', '--hallucination-retries', '0']).config.hallucination_retries).toBe(0);
    expect(() => parseRunFlags(['--domain', 'mock', '--hallucination-retries', '-1'])).toThrow(/hallucination_retries/);
    expect(RunRequestSchema.safeParse({ domain: 'mock', hallucination_retries: 101 }).success).toBe(false);
  });

  it("--provider-limit caps the run's concurrency by the agent model's provider (its litellm prefix)", () => {
    const capped = (model: string, spec: string) =>
      parseRunFlags(['--domain', 'mock', '--agent-llm', model, '--max-concurrency', '8', '--provider-limit', spec]).config.max_concurrency;
    expect(capped('openai/gpt-4.1', 'openai=2,gemini=20')).toBe(2);
    expect(capped('gemini/gemini-2.5-pro', 'openai=2, gemini = 20')).toBe(8);
    expect(capped('gpt-4.1', 'openai=2')).toBe(8);
    expect(() => capped('openai/x', 'openai')).toThrow("Invalid provider limit 'openai'; expected e.g. 'openai=40,gemini=20'");
    expect(() => capped('openai/x', 'openai=two')).toThrow("Invalid provider limit 'openai=two'");
    expect(() => capped('openai/x', 'openai=0')).toThrow('a cap of 0 would start nothing');
  });

  it('--log-level takes loguru levels (default ERROR); --verbose-logs needs --in-process; --llm-log-mode is all or latest (default latest)', () => {
    const defaults = parseRunFlags(['--domain', 'mock']);
    expect([defaults.logLevel, defaults.verboseLogs, defaults.llmLogMode, defaults.autoResume]).toEqual(['ERROR', false, 'latest', false]);
    const chosen = parseRunFlags(['--domain', 'mock', '--log-level', 'DEBUG', '--in-process', '--verbose-logs', '--llm-log-mode', 'all', '--auto-resume']);
    expect([chosen.logLevel, chosen.verboseLogs, chosen.llmLogMode, chosen.autoResume]).toEqual(['DEBUG', true, 'all', true]);
    expect(() => parseRunFlags(['--domain', 'mock', '--log-level', 'info'])).toThrow("Allowed choices are TRACE, DEBUG, INFO, SUCCESS, WARNING, ERROR, CRITICAL");
    expect(() => parseRunFlags(['--domain', 'mock', '--llm-log-mode', 'some'])).toThrow('Allowed choices are all, latest');
    expect(() => parseRunFlags(['--domain', 'mock', '--verbose-logs'])).toThrow('--verbose-logs writes the model calls made in this process: add --in-process');
  });

  it('rounds: --target-ci-width in (0, 1], --compare-to with --until-resolved, --max-trials bounded', () => {
    const m = ['--domain', 'mock'];
    expect(parseRunFlags(m).rounds).toBeNull();
    expect(parseRunFlags([...m, '--target-ci-width', '0.2']).rounds).toEqual({ kind: 'ci_width', width: 0.2, maxTrials: 10 });
    expect(parseRunFlags([...m, '--compare-to', 'a.json', '--until-resolved', '--max-trials', '30']).rounds).toEqual({ kind: 'resolved', compareTo: 'a.json', maxTrials: 30 });
    expect(() => parseRunFlags([...m, '--target-ci-width', '0'])).toThrow('--target-ci-width: 0 is not in (0, 1]');
    expect(() => parseRunFlags([...m, '--target-ci-width', '1.5'])).toThrow('--target-ci-width: 1.5 is not in (0, 1]');
    expect(() => parseRunFlags([...m, '--compare-to', 'a.json'])).toThrow('--compare-to and --until-resolved go together');
    expect(() => parseRunFlags([...m, '--until-resolved'])).toThrow('--compare-to and --until-resolved go together');
    expect(() => parseRunFlags([...m, '--target-ci-width', '0.2', '--compare-to', 'a.json', '--until-resolved'])).toThrow('exclude each other');
    expect(() => parseRunFlags([...m, '--max-trials', '5'])).toThrow('--max-trials needs --target-ci-width or --until-resolved');
    expect(() => parseRunFlags([...m, '--target-ci-width', '0.2', '--max-trials', '101'])).toThrow('--max-trials: 101 is not between --num-trials (1) and 100');
    expect(() => parseRunFlags([...m, '--target-ci-width', '0.2', '--num-trials', '4', '--max-trials', '3'])).toThrow('--max-trials: 3 is not between --num-trials (4)');
  });
});
