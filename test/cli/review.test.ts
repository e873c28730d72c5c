// `tau2-edge review` sends the reviewer model the reference's requests, byte for byte, and writes the same
// reviewed results file, on the same simulations and scripted answers (test/fixtures/review-expected.json).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/py/index.ts';
import { capture } from '../support/cli.ts';
import { httpError, startFakeOpenAI, text } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { regradeFixtureText } from '../support/regrade.ts';

interface ExpectedCall {
  model: string;
  roles: string[];
  system_sha256: string;
  user_sha256: string;
  reply: string;
}
interface ExpectedMode {
  calls: ExpectedCall[];
  reviewed_sha256: string;
  review_cost_line: string;
}
const expected = JSON.parse(await readFile(new URL('../fixtures/review-expected.json', import.meta.url), 'utf8')) as {
  review_model: string;
  usage: { prompt_tokens: number; completion_tokens: number };
  full: ExpectedMode;
  user: ExpectedMode;
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let fake: FakeOpenAI;
let dir: string;
let input: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-review-'));
  input = path.join(dir, 'airline.json');
  const fixture = { domain: 'airline', fixture: new URL('../fixtures/airline-results-regrade.json', import.meta.url), policy: 'domains/airline/policy.md' };
  await writeFile(input, await regradeFixtureText(fixture));
});
afterAll(() => fake.close());

const requestsSince = (start: number) =>
  fake.requests.slice(start).map((r) => {
    const body = r.body as { model: string; messages: { role: string; content: string }[]; tools?: unknown };
    return { body, system: body.messages[0]!.content, user: body.messages[1]!.content };
  });

describe('tau2-edge review', () => {
  it.each(['full', 'user'] as const)('%s: the reference\'s requests, reviewed results file and review cost', async (mode) => {
    const { calls, reviewed_sha256, review_cost_line } = expected[mode];
    fake.enqueue(...calls.map((c) => text(c.reply, { usage: expected.usage })));
    const start = fake.requests.length;
    const output = path.join(dir, `reviewed-${mode}.json`);
    const result = await capture([
      'review', input, '--mode', mode, '-o', output, '-c', '1', '--limit', '12',
      '--review-model', expected.review_model, '--llm-base-url', fake.baseURL,
    ]);
    expect(result.errors).toBe('');
    expect(result.code).toBe(0);
    const sent = requestsSince(start);
    expect(sent.map((r) => ({ model: r.body.model, roles: r.body.messages.map((m) => m.role), system_sha256: sha256Hex(r.system), user_sha256: sha256Hex(r.user) }))).toEqual(
      calls.map(({ model, roles, system_sha256, user_sha256 }) => ({ model, roles, system_sha256, user_sha256 })),
    );
    expect(sent.every((r) => r.body.tools === undefined)).toBe(true);
    expect(sha256Hex(await readFile(output, 'utf8'))).toBe(reviewed_sha256);
    expect(result.lines).toContain('  Limited to first 12 simulations');
    expect(result.lines).toContain('🔍 Reviewing 12 simulation(s) ...');
    expect(result.lines).toContain(`💾 Saved reviewed results to: ${output}`);
    expect(result.lines).toContain(review_cost_line);
  });

  it('a simulation whose review call fails keeps an empty review, the others are reviewed; the failure is reported', async () => {
    const { calls } = expected.full;
    // The first simulation's review call is refused for good (401 is not retried); the second is answered.
    fake.enqueue(httpError(401, 'bad key'), text(calls[0]!.reply, { usage: expected.usage }), text(calls[1]!.reply, { usage: expected.usage }));
    const output = path.join(dir, 'reviewed-failure.json');
    const result = await capture(['review', input, '-o', output, '-c', '1', '--limit', '2', '--review-model', expected.review_model, '--llm-base-url', fake.baseURL]);
    expect(result.code).toBe(0);
    expect(result.errors).toMatch(/^Error reviewing simulation airline-regrade-\S+: /);
    const sims = (JSON.parse(await readFile(output, 'utf8')) as { simulations: { review: unknown; auth_classification: unknown }[] }).simulations;
    expect(sims).toHaveLength(2);
    expect(sims[0]).toMatchObject({
      review: { summary: '', agent_error: false, user_error: false, critical_user_error: false, has_errors: false, errors: [], cost: null },
      auth_classification: null,
    });
    expect(sims[1]).toMatchObject({ review: { summary: 'Clean conversation.' }, auth_classification: { status: 'succeeded' } });
  });

  it('--task-ids keeps those tasks\' simulations', async () => {
    const { calls } = expected.full;
    fake.enqueue(...calls.slice(0, 4).map((c) => text(c.reply, { usage: expected.usage })));
    const output = path.join(dir, 'reviewed-task.json');
    const result = await capture(['review', input, '-o', output, '--task-ids', '0', '--review-model', expected.review_model, '--llm-base-url', fake.baseURL]);
    expect(result.code).toBe(0);
    expect(result.lines).toContain("  Filtered to 2/21 simulations for task_ids: ['0']");
    const sims = (JSON.parse(await readFile(output, 'utf8')) as { simulations: { task_id: string }[] }).simulations;
    expect(sims.map((s) => s.task_id)).toEqual(['0', '0']);
  });

  it('--log-llm writes each call into llm_logs/ beside the results file, by the reference\'s call names', async () => {
    const { calls } = expected.full;
    fake.enqueue(...calls.slice(0, 4).map((c) => text(c.reply, { usage: expected.usage })));
    const folder = path.join(dir, 'logged');
    await mkdir(folder, { recursive: true });
    const copy = path.join(folder, 'results.json');
    await writeFile(copy, await readFile(input, 'utf8'));
    const result = await capture(['review', copy, '--task-ids', '0', '--log-llm', '--review-model', expected.review_model, '--llm-base-url', fake.baseURL]);
    expect(result.code, result.errors).toBe(0);
    const logs = path.join(folder, 'llm_logs');
    expect(result.lines).toContain(`  LLM logs will be saved to: ${logs}`);
    const files = (await readdir(logs)).sort();
    expect(files.map((f) => f.replace(/^\d{8}_\d{6}_\d{3}_/, '').replace(/_[0-9a-f]{8}\.json$/, '')).sort()).toEqual(
      ['classify_authentication', 'classify_authentication', 'llm_judge_review', 'llm_judge_review'],
    );
    const logged = JSON.parse(await readFile(path.join(logs, files.find((f) => f.includes('llm_judge_review'))!), 'utf8')) as {
      call_name: string; request: { model: string; messages: { role: string }[] }; response: { content: string };
    };
    expect(logged.call_name).toBe('llm_judge_review');
    expect(logged.request.model).toBe(expected.review_model);
    expect(logged.request.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(typeof logged.response.content).toBe('string');
  });

  it('--show-details (or --verbose) prints each review as it finishes: summary, errors, authentication', async () => {
    const { calls } = expected.full;
    fake.enqueue(...calls.slice(2, 4).map((c) => text(c.reply, { usage: expected.usage })));
    const result = await capture([
      'review', input, '-o', path.join(dir, 'reviewed-details.json'), '--limit', '1', '--verbose',
      '--review-model', expected.review_model, '--llm-base-url', fake.baseURL,
    ]);
    expect(result.code).toBe(0);
    const at = result.lines.findIndex((l) => l.startsWith('Simulation: airline-regrade-'));
    expect(result.lines.slice(at + 1, at + 5)).toEqual([
      '  Two errors.',
      '  - [agent critical] turn 3 guideline_violation: Booked without confirmation. (instead: Ask first.)',
      '  - [user critical_hindered] turn 2 hallucination: Made up a zip code.',
      '  authentication: not_needed',
    ]);
  });

  it('a folder of run folders: each results.json is reviewed into its own results_reviewed.json', async () => {
    const runs = path.join(dir, 'simulations');
    const mock = await regradeFixtureText({ domain: 'mock', fixture: new URL('../fixtures/mock-results-b3.json', import.meta.url), policy: 'domains/mock/policy.md' });
    for (const name of ['run-a', 'run-b']) {
      await mkdir(path.join(runs, name), { recursive: true });
      await writeFile(path.join(runs, name, 'results.json'), mock);
    }
    const { calls } = expected.full;
    fake.enqueue(...calls.slice(0, 4).map((c) => text(c.reply, { usage: expected.usage })));
    const result = await capture(['review', runs, '-c', '1', '--review-model', expected.review_model, '--llm-base-url', fake.baseURL]);
    expect(result.code).toBe(0);
    expect(result.text).toContain('\n📁 Found 2 results files to review:\n  1. run-a/results.json\n  2. run-b/results.json\n\n');
    expect(result.text).toContain(`\n${'='.repeat(60)}\nProcessing (2/2): run-b\n${'='.repeat(60)}\n`);
    for (const name of ['run-a', 'run-b']) {
      const reviewed = JSON.parse(await readFile(path.join(runs, name, 'results_reviewed.json'), 'utf8')) as { simulations: { review: unknown }[] };
      expect(reviewed.simulations[0]!.review).not.toBeNull();
    }
  });

  it('an existing output is kept unless the overwrite is confirmed', async () => {
    const output = path.join(dir, 'reviewed-full.json');
    const before = await readFile(output, 'utf8');
    const args = ['review', input, '-o', output, '--review-model', expected.review_model, '--llm-base-url', fake.baseURL];
    const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), args);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.end('n\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(out).toBe(`\n⚠️  Reviewed results already exist: ${output}\nDo you want to overwrite? [y/n] (n): Aborted.\n`);
    expect(code).toBe(0);
    expect(await readFile(output, 'utf8')).toBe(before);
  }, 30_000);

  it('refusals name the flag; a missing path exits 1', async () => {
    const mode = await capture(['review', input, '--mode', 'agent']);
    expect(mode.code).toBe(2);
    expect(mode.errors).toContain("option '-m, --mode <mode>' argument 'agent' is invalid. Allowed choices are full, user.");
    const concurrency = await capture(['review', input, '-c', '0', '--llm-base-url', fake.baseURL]);
    expect(concurrency.code).toBe(1);
    expect(concurrency.errors).toContain('→ at ["--max-concurrency"]');
    const missing = await capture(['review', path.join(dir, 'nowhere'), '--review-model', expected.review_model, '--llm-base-url', fake.baseURL]);
    expect(missing.code).toBe(1);
    expect(missing.errors).toBe(`No results.json files found in: ${path.join(dir, 'nowhere')}\n`);
    const help = await capture(['review', '--help']);
    expect(help.text).toContain('Examples:\n  $ tau2-edge review ');
  });
});
