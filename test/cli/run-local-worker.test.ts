// `tau2-edge run` end to end on the real local worker (wrangler dev, workerd, D1, Durable Objects) against the
// fake provider: the CLI starts the worker, runs through the API, prints progress and the summary, saves the
// results and stops the worker; `view RUN --api` reads a run back from a worker started by the same code.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { startLocalWorker, repoRoot } from '../../src/cli/local-worker.ts';
import { main } from '../../src/cli/main.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';

const SECRET = 'sk-test-never-printed-4711';
let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-cli-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const capture = async (argv: string[]): Promise<{ code: number; text: string }> => {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => chunks.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    return { code: await main(argv), text: chunks.join('') };
  } finally {
    process.stdout.write = write;
  }
};

describe('tau2-edge run on the local worker', () => {
  it('bin/tau2-edge run starts the worker, runs two mock tasks through the API, saves reference results, stops it', async () => {
    const file = path.join(dir, 'run', 'results.json');
    const { stdout, stderr } = await promisify(execFile)(
      path.join(repoRoot, 'bin', 'tau2-edge'),
      ['run', '--domain', 'mock', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--task-ids', 'create_task_1', 'update_task_1', '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, 'run')],
      { env: { ...process.env, OPENAI_API_KEY: SECRET }, timeout: 120_000 },
    );
    expect(stdout).toMatch(/^local worker ready on http:\/\/127\.0\.0\.1:\d+/m);
    expect(stdout).toMatch(/^\[1\/2\] task \S+ trial 0: user_stop, reward \d\.\d/m);
    expect(stdout).toMatch(/^\[2\/2\] task/m);
    expect(stdout).toContain('=== Reward Metrics ===');
    expect(stdout).toMatch(/^ {2}Pass\^1 +\d\.\d{3}$/m);
    expect(stdout).toContain(`results saved to ${file}`);
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    expect(results.simulations.map((s) => s.termination_reason)).toEqual(['user_stop', 'user_stop']);
    expect(results.info.agent_info.llm).toBe('fake-agent');
    // The key reached the worker (it authorizes the provider calls) and was printed nowhere.
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    const log = await readFile(path.join(repoRoot, '.wrangler', 'tau2-edge-dev.log'), 'utf8');
    expect(`${stdout}${stderr}${log}`).not.toContain(SECRET);
  }, 180_000);

  it('run --api uses a serving worker; view RUN --api prints the run, its metrics and simulations', async () => {
    const worker = await startLocalWorker({
      persistTo: path.join(dir, 'state'),
      logFile: path.join(dir, 'wrangler.log'),
      env: { OPENAI_BASE_URL: fake.baseURL },
    });
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

      const simId = /^(\S+) +create_task_1 +0 /m.exec(view.text)?.[1];
      const sim = await capture(['view', runId!, '--api', worker.url, '--sim', simId!]);
      expect(sim.text).toContain('agent  → get_users({})');
      expect(sim.text).toMatch(/^ {2}reward \d/m);
    } finally {
      await worker.stop();
    }
  }, 180_000);
});
