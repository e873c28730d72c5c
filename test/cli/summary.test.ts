// The summary table: the reference's metrics sections, pass^k per k, infrastructure errors set apart.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { resultsSummary, summaryTable } from '../../src/cli/summary.ts';
import { scoredTrials } from '../support/simulations.ts';
import { resultsUsage } from '../../src/core/metrics/role-usage.ts';
import { computeMetrics } from '../../src/core/metrics/agent-metrics.ts';
import type { AgentMetrics } from '../../src/core/metrics/agent-metrics.ts';
import { parsePyJson, pyFloat } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { SimulationRun } from '../../src/core/schemas/simulation.ts';
import { runErrorBars } from '../../src/core/metrics/error-bars.ts';

const metrics = (over: Partial<AgentMetrics> = {}): AgentMetrics => ({
  avg_reward: 0.5,
  pass_hat_ks: { 1: 0.5, 2: 0.25 },
  avg_agent_cost: 0.0123,
  total_simulations: 4,
  total_tasks: 2,
  infra_error_count: 0,
  db_match_count: 1,
  db_mismatch_count: 3,
  db_not_checked: 0,
  termination_user_stop: 3,
  termination_agent_stop: 0,
  termination_max_steps: 1,
  termination_error: 0,
  termination_infrastructure_error: 0,
  reward_breakdown: { DB: 0.25 },
  ...over,
});

describe('summary table', () => {
  it('lists overview, average reward, pass^k for every k, cost, DB match, termination and breakdown', () => {
    expect(summaryTable(metrics())).toBe(
      [
        '=== Overview ===',
        'Total Simulations            4',
        'Total Tasks                  2',
        '',
        '=== Reward Metrics ===',
        'Average Reward               0.5000',
        '  Pass^1                     0.500',
        '  Pass^2                     0.250',
        'Avg Agent Cost/Conversation  $0.0123',
        '',
        '=== DB Match ===',
        'DB Match                     1 match / 3 mismatch (25.0%)',
        '',
        '=== Termination ===',
        'Normal Stop                  3 (user 3 / agent 0)',
        'Max Steps                    1',
        '',
        '=== Reward Breakdown ===',
        '  DB                         0.250',
      ].join('\n'),
    );
  });

  it('infrastructure errors are counted in the total and excluded from the evaluated ones', () => {
    const table = summaryTable(metrics({ infra_error_count: 2, termination_infrastructure_error: 2, reward_breakdown: {} }));
    expect(table).toContain('Total Simulations            6\nInfra Errors                 2 (excluded from metrics below)\nEvaluated                    4');
    expect(table).toContain('Infra Error                  2');
    expect(table).not.toContain('Reward Breakdown');
  });

  it('renders the metrics of a reference results file', async () => {
    const results = ResultsSchema.parse(parsePyJson(await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
    const table = summaryTable(computeMetrics(results));
    expect(table).toContain('Average Reward               1.0000');
    expect(table).toContain('  Pass^1                     1.000');
  });
});

describe('error bars in the summary', () => {
  // Figures from scripts/stats/expected-stats.py (RUN): mean 0.5375, clustered SE 0.14958 → ± 0.2932.
  const withErrorBars = (simulations: SimulationRun[]) => summaryTable(computeMetrics({ info: { num_trials: 4 }, simulations }), undefined, runErrorBars(simulations));
  const RUN = { t1: [1, 1, 1, 1], t2: [0, 1, 0, 1], t3: [0, 0, 0, 0], t4: [1, 0, 1, 1], t5: [0.5, 1, 0, 0.25] };

  it('average reward and pass^k with their 95% CI, and where the variance is', () => {
    const text = withErrorBars(scoredTrials(RUN));
    expect(text).toMatch(/^Average Reward +0\.5375 ± 0\.2932 \(95% CI, clustered by task, 5 tasks × 4 trials\)$/m);
    expect(text).toMatch(/^ {2}Pass\^1 +0\.500 ± 0\.346 \(95% CI over 5 tasks\)$/m);
    expect(text).toMatch(/^ {2}Pass\^4 +0\.200 ± 0\.392 \(95% CI over 5 tasks\)$/m);
    expect(text).toMatch(/^Between Tasks +0\.1119$/m);
    expect(text).toMatch(/^Within Tasks +0\.1148$/m);
    expect(text).toMatch(/^Tasks Whose Trials Disagree +3 of 5$/m);
  });

  it('tasks with fewer than k trials are left out of pass^k and counted', () => {
    const sims = scoredTrials({ t1: [1, 0, 1], t2: [0], t3: [1, 1], t4: [0, 0, 1, 1] });
    const text = withErrorBars(sims);
    expect(text).toMatch(/^Average Reward +0\.6000 ± 0\.2147 \(95% CI, clustered by task, 4 tasks, 10 simulations\)$/m);
    expect(text).toMatch(/^ {2}Pass\^2 +0\.500 ± 0\.499 \(95% CI over 3 tasks; 1 task with fewer than 2 trials left out\)$/m);
    expect(text).toMatch(/^ {2}Pass\^4 +0\.000 \(95% CI over 1 task; 3 tasks with fewer than 4 trials left out\)$/m);
  });

  it('a reference results file: the summary keeps the reference figures and adds the error bars', async () => {
    const results = ResultsSchema.parse(parsePyJson(await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
    const text = resultsSummary(results);
    expect(text).toMatch(/^Average Reward +1\.0000 ± 0\.0000 \(95% CI, clustered by task, \d+ tasks? × \d+ trials?\)$/m);
    expect(text).toContain('=== Where the Variance Is ===');
  });
});

describe('token totals and cost in the summary', () => {
  it('a reference file (no recorded usage): the agent and user from their messages; a model priced nowhere reads unpriced, never $0', async () => {
    const results = ResultsSchema.parse(parsePyJson(await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
    const usage = resultsUsage(results);
    const agentMessages = results.simulations.flatMap((s) => s.messages ?? []).filter((m) => m.role === 'assistant').filter((m) => m.usage !== null);
    expect(usage.agent.calls).toBe(agentMessages.length);
    expect(usage.agent.prompt_tokens).toBe(agentMessages.reduce((n, m) => n + Number((m.usage as { prompt_tokens?: number }).prompt_tokens ?? 0), 0));
    expect(usage.agent.prompt_tokens).toBeGreaterThan(0);
    const text = summaryTable(computeMetrics(results), usage);
    expect(text).toMatch(/^Agent +\d+ calls, \d+ prompt \+ \d+ completion tokens, \$\d+\.\d{4}$/m);
    expect(text).toMatch(/^Judge +0 calls, 0 prompt \+ 0 completion tokens, none$/m);

    // A model priced nowhere: the reference records its cost as 0.
    const unpriced = {
      info: { ...results.info, user_info: { ...results.info.user_info, llm: 'ollama_chat/local-model' } },
      simulations: results.simulations.map((s) => ({ ...s, messages: (s.messages ?? []).map((m) => (m.role === 'user' ? { ...m, cost: pyFloat(0) } : m)) })),
    };
    expect(summaryTable(computeMetrics({ ...results, ...unpriced }), resultsUsage(unpriced))).toMatch(
      /^User +\d+ calls, \d+ prompt \+ \d+ completion tokens, unpriced \(ollama_chat\/local-model\)$/m,
    );
  });
});
