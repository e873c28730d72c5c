// `tau2-edge run` end to end on the real local worker (workerd, D1, Durable Objects) against the
// fake provider: the CLI starts the worker, runs through the API, prints progress and the summary, saves the
// results and stops the worker; `view RUN --api` reads a run back from a worker started by the same code.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockConversation, requireKey, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { defaultPersistDir, localStateRoot, startLocalWorker, repoRoot } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';

const SECRET = 'sk-test-never-printed-4711';
let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-cli-'));
  // Runs without --save-to are saved here, not in the checkout's data/simulations.
  process.env.TAU2_EDGE_SIMULATIONS_DIR = path.join(dir, 'simulations');
});
/** A worker serving `--api` commands (without an operator key), started by the first test that needs it and shared by the next. */
let serving: Promise<LocalWorker> | undefined;
const servingWorker = (): Promise<LocalWorker> =>
  (serving ??= startLocalWorker({ persistTo: path.join(dir, 'state'), logFile: path.join(dir, 'worker.log'), env: { OPENAI_BASE_URL: fake.baseURL } }));
afterAll(async () => {
  await (await serving)?.stop();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs bin/tau2-edge: its output, exit code, when it said the local worker was ready and when it ended. */
const runBin = (args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; code: number | null; readyAt: number | null; endedAt: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let readyAt: number | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (readyAt === null && /^local worker ready on /m.test(stdout)) readyAt = Date.now();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, code, readyAt, endedAt: Date.now() }));
  });

/** Every file under `root` with its size and modification time (none when it does not exist). */
const stateListing = async (root: string): Promise<string[]> => {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
  return Promise.all(files.map(async (file) => `${file} ${(await stat(file)).size} ${(await stat(file)).mtimeMs}`));
};

const until = async (condition: () => boolean, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('tau2-edge run on the local worker', () => {
  it('bin/tau2-edge run starts the worker, runs two mock tasks through the API, saves reference results, stops it', async () => {
    const file = path.join(dir, 'run', 'results.json');
    const usersState = await stateListing(path.join(repoRoot, '.wrangler', 'state'));
    const { stdout, stderr } = await promisify(execFile)(
      path.join(repoRoot, 'bin', 'tau2-edge'),
      ['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--task-ids', 'create_task_1', 'update_task_1', '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, 'run')],
      { env: { ...process.env, OPENAI_API_KEY: SECRET }, timeout: 120_000 },
    );
    expect(stdout).toMatch(/^local worker ready on http:\/\/127\.0\.0\.1:\d+/m);
    expect(stdout).toMatch(/^\[1\/2\] task \S+ trial 0: user_stop, reward \d\.\d/m);
    expect(stdout).toMatch(/^\[2\/2\] task/m);
    expect(stdout).toContain('=== Reward Metrics ===');
    expect(stdout).toMatch(/^ {2}Pass\^1 +\d\.\d{3} ± \d\.\d{3} \(95% CI over 2 tasks\)$/m);
    expect(stdout).toContain(`results saved to ${file}`);
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    expect(results.simulations.map((s) => s.termination_reason)).toEqual(['user_stop', 'user_stop']);
    expect(results.info.agent_info.llm).toBe('fake-agent');
    // The key reached the worker (it authorizes the provider calls) and was printed nowhere.
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    const log = await readFile(path.join(localStateRoot(), 'tau2-edge-dev.log'), 'utf8');
    expect(`${stdout}${stderr}${log}`).not.toContain(SECRET);
    // The run went to the test suite's own state (TAU2_EDGE_STATE_DIR), not the user's `.wrangler/state`.
    expect(defaultPersistDir().startsWith(process.env.TAU2_EDGE_STATE_DIR!)).toBe(true);
    expect(await stateListing(defaultPersistDir())).not.toEqual([]);
    expect(await stateListing(path.join(repoRoot, '.wrangler', 'state'))).toEqual(usersState);
  }, 180_000);

  it('a wrong key (401) stops the run in seconds: the provider\'s message printed, key redacted, exit 1, what finished saved', async () => {
    const wrongKey = 'sk-wrong-key-never-printed-0815';
    fake.setHandler(requireKey('sk-right', mockConversation()));
    try {
      const before = fake.requests.length;
      const save = path.join(dir, 'refused', 'results.json');
      const { stdout, code, readyAt, endedAt } = await runBin(
        // 50 trials: over the operator limit LIMIT_MAX_TRIALS = 32, which the user's own worker does not apply.
        ['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--num-trials', '50', '--max-concurrency', '2',
          '--llm-base-url', fake.baseURL, '--save-to', save],
        { ...process.env, OPENAI_API_KEY: wrongKey },
      );
      expect(readyAt, stdout).not.toBeNull();
      expect(code).toBe(1);
      expect(stdout).toMatch(/^run stopped: The provider refused: .*HTTP 401.*Incorrect API key provided: \[redacted\]/m);
      expect(stdout).toMatch(/^=== Infrastructure Errors ===\n\d+ × .*HTTP 401/m);
      expect(stdout).not.toContain(wrongKey);
      expect(stdout).toMatch(/^run \S+: 500 simulations$/m);
      // Stopped early: no more calls than simulations started at once (none retried), far fewer than the run's 500.
      expect(fake.requests.length - before).toBeLessThanOrEqual(2);
      const results = ResultsSchema.parse(parsePyJson(await readFile(save, 'utf8')));
      expect(results.simulations.length).toBeGreaterThan(0);
      expect(results.simulations.every((s) => s.termination_reason === 'infrastructure_error' && s.info?.['failed_after_attempts'] === 1)).toBe(true);
      // Seconds after the worker is ready, not the minutes of every simulation retried.
      expect(endedAt - readyAt!).toBeLessThan(20_000);
    } finally {
      fake.setHandler(mockConversation());
    }
  }, 180_000);

  it('run --api uses a serving worker; view RUN --api prints the run, its metrics and simulations; Ctrl-C cancels', async () => {
    const worker = await servingWorker();
    try {
      const run = await capture(['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--task-ids', 'create_task_1', 'update_task_1', '--num-trials', '2', '--api', worker.url]);
      expect(run.code).toBe(0);
      const runId = /^run (\S+): 4 simulations$/m.exec(run.text)?.[1];
      expect(runId).toBeDefined();
      expect(run.text).toContain('  Pass^2');

      const view = await capture(['view', runId!, '--api', worker.url]);
      expect(view.code).toBe(0);
      expect(view.text).toMatch(new RegExp(`^run ${runId} · completed · 4/4 done`, 'm'));
      expect(view.text).toContain('domain mock · agent llm_agent (fake-agent)');
      expect(view.text.match(/^\S+ +(create_task_1|update_task_1) +[01] +user_stop/gm)).toHaveLength(4);

      // `runs` lists it; `rerun-infra-errors` finds nothing to rerun in a run without infrastructure errors.
      const runs = await capture(['runs', '--api', worker.url]);
      expect(runs.code).toBe(0);
      expect(runs.lines.find((l) => l.startsWith(`${runId}\t`))?.split('\t').slice(0, 5)).toEqual([runId, 'completed', 'mock', '4/4 done', '0 infra errors']);
      const rerun = await capture(['rerun-infra-errors', runId!, '--api', worker.url]);
      expect(rerun.code).toBe(0);
      expect(rerun.text).toBe(`run ${runId}: 0 simulations rerun, status completed\n`);

      const simId = /^(\S+) +create_task_1 +0 /m.exec(view.text)?.[1];
      const sim = await capture(['view', runId!, '--api', worker.url, '--sim', simId!]);
      expect(sim.text).toContain('agent  → get_users({})');
      expect(sim.text).toMatch(/^ {2}reward \d/m);

      // --auto-resume through the API: the saved simulation is skipped by the worker, the added task runs.
      // In a folder of its own: a simulations/ folder beside a results file would make it the dir format.
      const saved = path.join(dir, 'resumed', 'results.json');
      const resumeArgs = ['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--api', worker.url, '--save-to', saved, '--task-ids', 'create_task_1'];
      expect((await capture(resumeArgs)).code).toBe(0);
      const resumed = await capture([...resumeArgs, 'update_task_1', '--auto-resume']);
      expect(resumed.code, resumed.errors).toBe(0);
      expect(resumed.text).toMatch(/^run \S+: 1 simulations$/m);
      const merged = ResultsSchema.parse(parsePyJson(await readFile(saved, 'utf8')));
      expect(merged.simulations.map((s) => s.task_id)).toEqual(['create_task_1', 'update_task_1']);

      // Ctrl-C: the run is cancelled, the summary covers what finished, the exit code is 130.
      fake.setHandler(mockConversation({ delayMs: 300 }));
      const interrupted = await capture(
        ['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--num-trials', '4', '--max-concurrency', '2', '--api', worker.url],
        async (text) => {
          await until(() => /^\[1\/\d+\]/m.test(text())).catch(async (error: Error) => {
            // What the run and the worker were doing, for a stall that is not reproduced at will.
            const runId = /^run (\S+): /m.exec(text())?.[1];
            const run = runId === undefined ? 'no run id printed' : await (await fetch(`${worker.url}/v1/runs/${runId}`)).text();
            const log = (await readFile(path.join(dir, 'worker.log'), 'utf8')).split('\n').slice(-60).join('\n');
            throw new Error(`${error.message}\n--- output\n${text()}\n--- run\n${run}\n--- worker log (last 60 lines)\n${log}`);
          });
          process.emit('SIGINT');
        },
      );
      expect(interrupted.code).toBe(130);
      expect(interrupted.text).toMatch(/^interrupted: cancelling run \S+$/m);
      expect(interrupted.text).toMatch(/^run cancelled: the summary covers the \d+ simulations that finished$/m);
      const cancelledId = /^run (\S+): 40 simulations$/m.exec(interrupted.text)?.[1];
      const cancelledView = await capture(['view', cancelledId!, '--api', worker.url]);
      expect(cancelledView.text).toMatch(new RegExp(`^run ${cancelledId} · cancelled · `, 'm'));
    } finally {
      fake.setHandler(mockConversation());
    }
  }, 180_000);

  it('run --target-ci-width through a worker: each round a run of one more trial, one results file with all trials', async () => {
    const worker = await servingWorker();
    const file = path.join(dir, 'rounds.json');
    const run = await capture(['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--task-ids', 'create_task_1', 'update_task_1',
      '--target-ci-width', '0.05', '--max-trials', '2', '--api', worker.url, '--save-to', file]);
    expect(run.code, run.text).toBe(0);
    expect(run.text).toMatch(/^round 1: after 1 trial\(s\) per task: .* wide \(target 0\.05\)$/m);
    expect(run.text).toContain('rounds stopped: max_trials');
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    expect(results.info.num_trials).toBe(2);
    expect(results.simulations.map((s) => `${s.task_id}/${s.trial}`).sort()).toEqual(['create_task_1/0', 'create_task_1/1', 'update_task_1/0', 'update_task_1/1']);
  }, 180_000);

  it('admin keys create|list|revoke: the operator issues a tenant key that works until revoked', async () => {
    const worker = await startLocalWorker({
      persistTo: path.join(dir, 'admin-state'),
      logFile: path.join(dir, 'admin-worker.log'),
      env: { OPENAI_BASE_URL: fake.baseURL, API_KEY: 'operator-key-for-test' },
    });
    const saved = process.env.TAU2_EDGE_API_KEY;
    process.env.TAU2_EDGE_API_KEY = 'operator-key-for-test';
    try {
      const created = await capture(['admin', 'keys', 'create', '--tenant', 'acme', '--name', 'acme CI', '--api', worker.url]);
      expect(created.code).toBe(0);
      const keyId = /^created (key_[0-9a-f]+) for tenant acme \(acme CI\)$/m.exec(created.text)?.[1];
      const key = /^key \(shown once, keep it secret\): (t2e_\S+)$/m.exec(created.text)?.[1];
      expect(keyId).toBeDefined();
      const asTenant = () => fetch(`${worker.url}/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
      expect((await asTenant()).status).toBe(200);

      const list = await capture(['admin', 'keys', 'list', '--api', worker.url]);
      const listed = list.text.split('\n').find((line) => line.startsWith(`${keyId}\t`))!;
      expect(listed.split('\t')).toEqual([keyId, 'acme', 'acme CI', `${key!.slice(0, 10)}…`, expect.any(String), 'active']);
      expect(list.text).not.toContain(key!);

      const revoked = await capture(['admin', 'keys', 'revoke', keyId!, '--api', worker.url]);
      expect(revoked.text.startsWith(`revoked ${keyId} (tenant acme) at `)).toBe(true);
      expect((await asTenant()).status).toBe(401);
    } finally {
      if (saved === undefined) delete process.env.TAU2_EDGE_API_KEY;
      else process.env.TAU2_EDGE_API_KEY = saved;
      await worker.stop();
    }
  }, 120_000);
});
