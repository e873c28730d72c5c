// `tau2-edge view FILE --web`: the web viewer over local results files (json and the reference's dir format),
// read only: the runs, a run's pass^k and tasks, a trajectory, and the per-task deltas of two files.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regradeFixtureText } from '../support/regrade.ts';
import { loadResults, saveResults } from '../../src/cli/results-file.ts';
import { fileNames, startWebView } from '../../src/cli/view/web.ts';
import type { WebView } from '../../src/cli/view/web.ts';
import { computeMetrics } from '../../src/core/metrics/agent-metrics.ts';
import { runErrorBars } from '../../src/core/metrics/error-bars.ts';
import { pairedComparison } from '../../src/core/metrics/paired-comparison.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';
import { simulationDbDiff } from '../../src/core/evaluator/db-diff.ts';
import { loadDomain } from '../../src/cli/data.ts';
import { repoRoot } from '../../src/cli/local/worker.ts';
import { capture } from '../support/cli.ts';

let dir: string;
let web: WebView;
let airline: Results;
let changed: Results;
let changedTask: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-view-web-'));
  const json = path.join(dir, 'airline.json');
  await writeFile(json, await regradeFixtureText({ domain: 'airline', fixture: new URL('../fixtures/airline-results-regrade.json', import.meta.url), policy: 'domains/airline/policy.md' }));
  airline = await loadResults(json);
  // The same run with the first simulation's reward flipped, saved in the dir format.
  const [first, ...rest] = airline.simulations;
  changedTask = first!.task_id;
  const flipped = { ...first!, reward_info: { ...first!.reward_info!, reward: pyFloat(1 - first!.reward_info!.reward.value) } };
  changed = { ...airline, simulations: [flipped, ...rest] };
  await mkdir(path.join(dir, 'changed'));
  await saveResults(path.join(dir, 'changed'), changed, 'dir');
  web = await startWebView([json, path.join(dir, 'changed', 'results.json')]);
});
afterAll(async () => {
  await web?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = async (route: string): Promise<{ status: number; text: string }> => {
  const response = await fetch(`${web.url}${route}`);
  return { status: response.status, text: await response.text() };
};

describe('tau2-edge view --web', () => {
  it('names each file by its name, or its folder for a dir-format results.json', () => {
    expect(fileNames(['/x/a.json', '/y/run1/results.json', '/z/a.json'])).toEqual(['a.json', 'run1', 'a.json-2']);
  });

  it('lists both files as completed runs, read only: no launch form, and a launch is refused', async () => {
    const { status, text } = await get('/');
    expect(status).toBe(200);
    expect(text).toContain('data-run="airline.json"');
    expect(text).toContain('data-run="changed"');
    expect(text).not.toContain('action="/runs"');
    const launch = await fetch(`${web.url}/runs`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: web.url }, body: 'domain=mock' });
    expect(launch.status).toBe(405);
    const runs = await fetch(`${web.url}/runs`, { redirect: 'manual' });
    expect([runs.status, runs.headers.get('location')]).toEqual([303, '/']);
  });

  it("a file's run page shows its pass^1 and every task", async () => {
    const { text } = await get('/runs/airline.json');
    const metrics = computeMetrics(airline);
    expect(text).toContain(`data-field="pass-hat-1">${metrics.pass_hat_ks[1]!.toFixed(3)}<`);
    expect(text.match(/<tr data-task=/g)).toHaveLength(metrics.total_tasks);
    expect(text).not.toContain('<script');
  });

  it("a trajectory shows the simulation's messages and its action checks", async () => {
    const sim = airline.simulations.find((s) => (s.reward_info?.action_checks?.length ?? 0) > 0)!;
    const { status, text } = await get(`/simulations/${encodeURIComponent(sim.id)}`);
    expect(status).toBe(200);
    expect(text.match(/<li class="(assistant|user|tool|user-tool|system)/g)).toHaveLength(sim.messages!.length);
    expect(text).toContain('id="action-checks"');
    expect((await get('/simulations/nope')).status).toBe(404);
  });

  it('a trajectory whose DB check failed shows the final DB against gold, changed paths only', async () => {
    const sim = airline.simulations.find((s) => s.reward_info?.db_check?.db_match === false)!;
    const { text } = await get(`/simulations/${encodeURIComponent(sim.id)}`);
    const table = /<table id="db-diff">([\s\S]*?)<\/table>/.exec(text)?.[1] ?? '';
    const task = airline.tasks.find((t) => t.id === sim.task_id)!;
    const { domain, data } = await loadDomain('airline');
    const expected = simulationDbDiff(task, sim, { domain, data, solo: false });
    expect(expected.differences.length).toBeGreaterThan(0);
    expect(table.match(/<tr><td>agent<\/td>/g)).toHaveLength(expected.differences.length);
    expect(table).toContain(`<code>${expected.differences[0]!.path.join('.')}</code>`);
    const matched = airline.simulations.find((s) => s.reward_info?.db_check?.db_match === true)!;
    expect((await get(`/simulations/${encodeURIComponent(matched.id)}`)).text).toContain('No path of the final DB differs from the gold one.');
  });

  it('compares the two files: the flipped task has the delta, every other task none', async () => {
    const { text } = await get('/compare?a=airline.json&b=changed');
    const trials = airline.simulations.filter((s) => s.task_id === changedTask);
    const before = airline.simulations[0]!.reward_info!.reward.value;
    const delta = (1 - 2 * before) / trials.length;
    const cell = (task: string) => new RegExp(`<tr data-task="${task.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">(?:(?!</tr>)[\\s\\S])*data-field="delta">([^<]*)<`).exec(text)?.[1];
    expect(cell(changedTask)).toBe(`${delta > 0 ? '+' : '−'}${Math.abs(delta).toFixed(3)}`);
    const others = [...new Set(airline.simulations.map((s) => s.task_id))].filter((t) => t !== changedTask);
    for (const task of others) expect(cell(task)).toBe('±0.000');
    expect(text.match(/<g class="series"/g)).toHaveLength(2);
  });
});

describe('error bars in the web viewer', () => {
  it("the run page shows each score's 95% CI and draws pass^k with error bars", async () => {
    const bars = runErrorBars(airline.simulations)!;
    const { text } = await get('/runs/airline.json');
    expect(text).toContain(`± ${(bars.avg_reward.ci_high! - bars.avg_reward.value).toFixed(3)} (95% CI)`);
    expect(text).toContain(`data-field="disagreeing-tasks">${bars.variance.disagreeing_tasks}<`);
    const drawn = bars.pass_hat_ks.filter((p) => p.k in computeMetrics(airline).pass_hat_ks && p.ci_low !== null);
    expect(drawn.length).toBeGreaterThan(0);
    expect(text.match(/<line class="error-bar" data-k="\d+"/g)).toHaveLength(drawn.length);
  });

  it('compare draws the paired difference with its CI, the p-value and whether it is resolved', async () => {
    const { text } = await get('/compare?a=airline.json&b=changed');
    const paired = pairedComparison(airline.simulations, changed.simulations);
    expect(paired.se).not.toBeNull();
    expect(text).toContain(`data-field="p-value">${paired.p_value!.toFixed(3)}<`);
    expect(text).toContain(`data-field="resolved" class="${paired.resolved ? 'ok' : ''}">${paired.resolved ? 'yes' : 'no'}<`);
    expect(text).toContain(`<line class="ci" data-low="${paired.ci_low}" data-high="${paired.ci_high}"`);
    expect(text).toContain(`<circle class="difference" data-value="${paired.difference}"`);
  });

  it('further runs are each set against A, a bounded few', async () => {
    const { text } = await get(`/compare?a=airline.json&b=changed${'&b=airline.json'.repeat(5)}`);
    const rows = /<section id="more-runs"[\s\S]*?<\/section>/.exec(text)?.[0] ?? '';
    expect(rows.match(/<tr data-run=/g)).toHaveLength(3);
    expect(rows.match(/data-field="difference">±0\.000</g)).toHaveLength(3);
    expect(rows.match(/data-field="resolved">no</g)).toHaveLength(3);
  });
});

describe('bin/tau2-edge view FILE --web', () => {
  it('prints its 127.0.0.1 URL, serves the pages, and stops on SIGINT with exit 0', async () => {
    const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), ['view', path.join(dir, 'airline.json'), '--web'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (const deadline = Date.now() + 30_000; !/web viewer on http:\/\/127\.0\.0\.1:\d+/.test(output); ) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no URL printed:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = /web viewer on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    expect(await (await fetch(`${url}/`)).text()).toContain('data-run="airline.json"');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('refuses a target that is not a results file', async () => {
    const { code, errors } = await capture(['view', 'no-such-run', '--web']);
    expect(code).toBe(1);
    expect(errors).toContain('--web shows results files');
  });
});

describe('tau2-edge view --web, telecom', () => {
  /** The airline simulations as a telecom run: task ids in the telecom shape, in two issue families. */
  const asTelecom = (results: Results, solo: boolean, rewardOf: (i: number) => number): Results => ({
    ...results,
    info: {
      ...results.info,
      environment_info: { ...results.info.environment_info, domain_name: 'telecom' },
      agent_info: { ...results.info.agent_info, implementation: solo ? 'llm_agent_solo' : 'llm_agent' },
      user_info: { ...results.info.user_info, implementation: solo ? 'dummy_user' : 'user_simulator' },
    },
    simulations: results.simulations.slice(0, 4).map((s, i) => ({
      ...s,
      id: `${solo ? 'solo' : 'default'}-${i}`,
      task_id: `[${i % 2 === 0 ? 'mobile_data_issue' : 'service_issue'}]issue_${i}[PERSONA:None]`,
      trial: 0,
      termination_reason: 'user_stop' as const,
      reward_info: { ...s.reward_info!, reward: pyFloat(rewardOf(i)) },
    })),
  });

  it('shows results per issue type and the solo-versus-default comparison', async () => {
    const scratch = await mkdtemp(path.join(tmpdir(), 'tau2-edge-view-telecom-'));
    // Default: every task passes; solo: only the mobile-data tasks do.
    await saveResults(path.join(scratch, 'default.json'), asTelecom(airline, false, () => 1));
    await saveResults(path.join(scratch, 'solo.json'), asTelecom(airline, true, (i) => (i % 2 === 0 ? 1 : 0)));
    const telecom = await startWebView([path.join(scratch, 'default.json'), path.join(scratch, 'solo.json')]);
    try {
      const text = await (await fetch(`${telecom.url}/runs/default.json`)).text();
      const rows = (id: string) =>
        [...(new RegExp(`<table id="${id}">([\\s\\S]*?)</table>`).exec(text)?.[1] ?? '').matchAll(/<tr><td>([^<]*)<\/td>((?:<td class="num">[^<]*<\/td>)+)<\/tr>/g)].map((m) => [
          m[1],
          ...[...m[2]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((c) => c[1]),
        ]);
      expect(rows('issue-types')).toEqual([
        ['mobile_data_issue', '2', '2', '1.000', '1.000'],
        ['service_issue', '2', '2', '1.000', '1.000'],
      ]);
      expect(rows('modes')).toEqual([
        ['overall', '4', '1.000', '0.500', '−0.500'],
        ['mobile_data_issue', '2', '1.000', '1.000', '±0.000'],
        ['service_issue', '2', '1.000', '0.000', '−1.000'],
      ]);
    } finally {
      await telecom.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
