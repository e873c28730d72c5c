// `tau2-edge run` flags → the run configuration sent to the API (the reference's `tau2 run` defaults).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { parseRunFlags, resultsPath, simulationsDir } from '../../src/cli/run-flags.ts';
import { localWorkerEnv } from '../../src/cli/run-remote.ts';
import { localCredentialsKey } from '../../src/cli/local-worker.ts';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dumpsPy } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { RunRequestSchema } from '../../src/core/schemas/api.ts';

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

  it('a .json --save-to is the file itself', () => {
    expect(resultsPath('r.json')).toBe('r.json');
  });

  it('the local worker gets the provider URL (flag over environment), the key, the commit, local endpoints and its sealing key, nothing else', () => {
    const env = { OPENAI_BASE_URL: 'http://env/v1', OPENAI_API_KEY: 'sk-x', HOME: '/root' };
    const local = { GIT_COMMIT: 'abc123', ALLOW_LOCAL_PROVIDERS: 'true', CREDENTIALS_KEY: 'k' };
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
});
