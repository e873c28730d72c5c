// `tau2-edge run --in-process`: the same flags, progress, summary and results file without a worker.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpError, mockConversation, requireKey, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { main } from '../../src/cli/main.ts';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { saveResults } from '../../src/cli/results-file.ts';
import { startFakeNative } from '../support/fake-native.ts';
import type { FakeNative } from '../support/fake-native.ts';
import { runErrorBars } from '../../src/core/metrics/error-bars.ts';

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-inproc-'));
  process.env.TAU2_EDGE_SIMULATIONS_DIR = path.join(dir, 'simulations');
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('tau2-edge run --in-process', () => {
  it('runs the tasks × trials, prints a line per simulation and the summary, and saves a reference results file', async () => {
    const file = path.join(dir, 'r.json');
    const { code, text } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', 'update_task_1', '--num-trials', '2',
      '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file]);
    expect(code).toBe(0);
    expect(text.match(/^\[\d\/4\] task (create|update)_task_1 trial [01]: user_stop, reward \d\.\d \(ETA \S+\)$/gm)).toHaveLength(4);
    expect(text).toContain('Total Simulations            4\nTotal Tasks                  2');
    expect(text).toMatch(/^ {2}Pass\^2 +\d\.\d{3} ± \d\.\d{3} \(95% CI over 2 tasks\)$/m);
    const saved = await readFile(file, 'utf8');
    const results = ResultsSchema.parse(parsePyJson(saved));
    expect(results.simulations).toHaveLength(4);
    // Beside the reference's fields, the error bars of its metrics (a key the reference's loader ignores).
    expect(results.error_bars).toEqual(runErrorBars(results.simulations));
    expect(results.error_bars!.avg_reward).toMatchObject({ tasks: 2, simulations: 4, trials_per_task: 2 });
    // Written as the reference writes it: indent 2, Python number kinds kept, non-ASCII as raw UTF-8.
    expect(saved).toBe(dumpsPy(results as unknown as PyValue, { indent: 2, ensureAscii: false }));
    expect(saved).toContain('"temperature": 0.0');
  });

  it('--agent-url sends the agent turns to that URL with the --agent-header headers, the user turns to the provider', async () => {
    const agent = await startFakeOpenAI();
    agent.setHandler(mockConversation());
    try {
      const before = fake.requests.length;
      const url = `${agent.baseURL}/my-agent/chat/completions`;
      const { code, text } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user',
        '--llm-base-url', fake.baseURL, '--agent-url', url, '--agent-header', 'X-Agent-Key: s3cret', '--save-to', path.join(dir, 'agent-url.json')]);
      expect(code, text).toBe(0);
      expect(text).toMatch(/task create_task_1 trial 0: user_stop, reward \d\.\d/);
      expect(agent.requests.length).toBeGreaterThan(0);
      expect(agent.requests.every((r) => r.path === '/v1/my-agent/chat/completions' && r.headers['x-agent-key'] === 's3cret')).toBe(true);
      const models = fake.requests.slice(before).map((r) => (r.body as { model: string }).model);
      expect(models.length).toBeGreaterThan(0);
      expect(models).not.toContain('fake-agent');
      expect(await readFile(path.join(dir, 'agent-url.json'), 'utf8')).not.toContain('s3cret');
    } finally {
      await agent.close();
    }
  });

  it('saves by default under data/simulations with the reference run name, printing the path; never overwrites', async () => {
    const argv = ['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'openai/fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL];
    const { code, text } = await capture(argv);
    expect(code).toBe(0);
    const file = /^results saved to (.+)$/m.exec(text)?.[1];
    expect(file).toMatch(new RegExp(`^${path.join(dir, 'simulations')}/\\d{8}_\\d{6}_mock_llm_agent_fake-agent_user_simulator_fake-user/results\\.json$`));
    expect(text).toContain(`results will be saved to ${file}`);
    const saved = await readFile(file!, 'utf8');
    expect(ResultsSchema.parse(parsePyJson(saved)).simulations).toHaveLength(1);

    // The same --save-to again: refused before anything runs, the file untouched.
    const again = await capture([...argv, '--save-to', file!]);
    expect(again.code).toBe(1);
    expect(again.errors).toContain(`${file} already exists`);
    expect(again.text).not.toContain('results will be saved');
    expect(await readFile(file!, 'utf8')).toBe(saved);
  });

  it('--fail-under gates on the average reward; nothing evaluated shows n/a and fails', async () => {
    const base = ['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL];
    const passing = await capture([...base, '--fail-under', '0', '--save-to', path.join(dir, 'pass.json')]);
    expect(passing.code).toBe(0);
    const failing = await capture([...base, '--fail-under', '1.5', '--save-to', path.join(dir, 'fail.json')]);
    expect(failing.code).toBe(1);
    expect(failing.text).toMatch(/^fail-under: average reward \d\.\d{4} is below 1\.5$/m);

  });

  it("a wrong key (401) stops the run in seconds, without retries: the provider's message printed, key redacted, exit 1, the partial file saved", async () => {
    const wrongKey = 'sk-wrong-key-never-printed-0815';
    fake.setHandler(requireKey('sk-right', mockConversation()));
    const before = fake.requests.length;
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = wrongKey;
    try {
      const file = path.join(dir, 'refused.json');
      const started = Date.now();
      // Default retries (3 per simulation), two simulations at a time.
      const broken = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', 'update_task_1', '--num-trials', '3',
        '--max-concurrency', '2', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file]);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(broken.code).toBe(1);
      expect(broken.text).toMatch(/^run stopped: The provider refused: .*HTTP 401.*Incorrect API key provided: \[redacted\]/m);
      expect(broken.text).not.toContain(wrongKey);
      expect(broken.text).toMatch(/^Average Reward +n\/a$/m);
      expect(broken.text).toMatch(/^=== Infrastructure Errors ===\n2 × .*HTTP 401/m);
      // The two simulations in flight were each tried once (no call retried); none started after the refusal.
      expect(fake.requests.length - before).toBe(2);
      const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
      expect(results.simulations.map((s) => s.termination_reason)).toEqual(['infrastructure_error', 'infrastructure_error']);
      expect(results.simulations.map((s) => s.info?.['failed_after_attempts'])).toEqual([1, 1]);
    } finally {
      process.env.OPENAI_API_KEY = saved;
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      fake.setHandler(mockConversation());
    }
  });

  it('the same refusal (HTTP 400) on three different tasks with no success stops the run; a 500 is retried instead', async () => {
    fake.setHandler(() => httpError(400, "Unsupported parameter: 'temperature'"));
    try {
      const refused = await capture(['run', '--in-process', '--domain', 'mock', '--num-trials', '2', '--max-concurrency', '1',
        '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, 'refused-400.json')]);
      expect(refused.code).toBe(1);
      expect(refused.text).toMatch(/^run stopped: The provider refused: .*HTTP 400.*Unsupported parameter/m);
      expect(refused.text).toMatch(/^3 × .*HTTP 400/m);
      fake.setHandler(() => httpError(500, 'overloaded'));
      const before = fake.requests.length;
      const once = '{"num_retries": 0}';
      const retried = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--max-retries', '1', '--retry-delay', '0',
        '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--agent-llm-args', once, '--user-llm-args', once, '--llm-base-url', fake.baseURL,
        '--save-to', path.join(dir, 'retried-500.json')]);
      expect(retried.text).not.toContain('run stopped');
      // Both whole-simulation attempts made, each with one call.
      expect(retried.text.match(/^retry: task create_task_1 trial 0 attempt \d failed/gm)).toHaveLength(2);
      expect(fake.requests.length - before).toBe(2);
    } finally {
      fake.setHandler(mockConversation());
    }
  });

  it('Ctrl-C stops starting simulations, prints the summary of the finished ones, saves them, exits 130', async () => {
    fake.setHandler(mockConversation({ delayMs: 30 }));
    try {
      const file = path.join(dir, 'interrupted.json');
      const run = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--num-trials', '6', '--max-concurrency', '1',
        '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file], async (text) => {
        while (!text().includes('[1/6]')) await new Promise((resolve) => setTimeout(resolve, 10));
        process.emit('SIGINT');
      });
      expect(run.code).toBe(130);
      expect(run.text).toContain('run cancelled: the summary covers the');
      expect(run.text).toContain(`results saved to ${file}`);
      const saved = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
      expect(saved.simulations.length).toBeGreaterThanOrEqual(1);
      expect(saved.simulations.length).toBeLessThan(6);
    } finally {
      fake.setHandler(mockConversation());
    }
  });

  it('without a provider URL or OPENAI_API_KEY it stops before starting anything, saying what is missing', async () => {
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await main(['run', '--domain', 'mock'])).toBe(1);
    } finally {
      process.stderr.write = write;
      if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
      if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
    }
    expect(errors.join('')).toContain('needs OPENAI_API_KEY; or give --llm-base-url URL');
  });
});

describe('tau2-edge run --in-process with Anthropic and Google models', () => {
  const VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_BASE_URL'] as const;
  let native: FakeNative;
  const saved: Partial<Record<(typeof VARS)[number], string>> = {};
  beforeAll(async () => {
    native = await startFakeNative();
    for (const name of VARS) saved[name] = process.env[name];
  });
  afterAll(async () => {
    for (const name of VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await native.close();
  });

  it('routes anthropic/… and gemini/… models to their providers with their keys', async () => {
    Object.assign(process.env, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: native.anthropicURL, GEMINI_API_KEY: 'gm-test', GOOGLE_GENERATIVE_AI_BASE_URL: native.googleURL });
    native.setHandler((r) => {
      if (r.provider === 'anthropic') return r.transcript.at(-1) === 'user: [tool_result]' ? { kind: 'text', text: 'Those are all the users.' } : { kind: 'tool', name: 'get_users', input: {} };
      // The simulated user speaks as the model: once it has, it stops.
      return r.transcript.some((t) => t.startsWith('model: ')) ? { kind: 'text', text: 'Thanks! ###STOP###' } : { kind: 'text', text: 'Could you list the users?' };
    });
    const file = path.join(dir, 'native.json');
    const { code, text } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'anthropic/claude-sonnet-4-5',
      '--user-llm', 'gemini/gemini-2.5-flash', '--judge-llm', 'anthropic/claude-sonnet-4-5', '--save-to', file]);
    expect(code, text).toBe(0);
    expect(text).toMatch(/task create_task_1 trial 0: user_stop, reward \d\.\d/);
    const byProvider = (p: string) => native.requests.filter((r) => r.provider === p);
    expect(byProvider('anthropic').map((r) => r.headers['x-api-key'])).toEqual(['sk-ant-test', 'sk-ant-test']);
    expect(byProvider('google').map((r) => r.headers['x-goog-api-key'])).toEqual(['gm-test', 'gm-test']);
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    expect(results.simulations[0]!.messages!.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('a model whose provider has no key stops the command before anything starts, naming the variable', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await main(['run', '--in-process', '--domain', 'mock', '--agent-llm', 'anthropic/claude-sonnet-4-5', '--llm-base-url', fake.baseURL])).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toContain('anthropic/claude-sonnet-4-5 is called on Anthropic, which needs ANTHROPIC_API_KEY');
  });
});

describe('results file fidelity', () => {
  it('non-ASCII text is written as raw UTF-8, as the reference (pydantic) writes it, and reads back the same', async () => {
    const fixture = ResultsSchema.parse(parsePyJson(await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
    const results = { ...fixture, info: { ...fixture.info, user_info: { ...fixture.info.user_info, global_simulation_guidelines: 'Café — naïve 東京' } } };
    const file = path.join(dir, 'utf8.json');
    await saveResults(file, results);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('"Café — naïve 東京"');
    expect(text).not.toMatch(/\\u[0-9a-f]{4}/);
    expect(ResultsSchema.parse(parsePyJson(text))).toEqual(results);
  });
});
