// Runs of banking_knowledge split by retrieval configuration (compareRetrievalConfigs), on results files the
// engine made: avg reward and pass^k per configuration, each task's reward and its delta against the first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRetrievalConfigs } from '../../../src/core/metrics/mode-comparison.ts';
import type { LabelledRun } from '../../../src/core/metrics/mode-comparison.ts';
import { loadResults } from '../../../src/cli/results-file.ts';
import { bankingResultsFiles } from '../../support/banking-runs.ts';

let dir: string;
let noKnowledge: LabelledRun;
let bm25: LabelledRun;
let mock: LabelledRun;

const labelled = async (label: string, file: string): Promise<LabelledRun> => ({ label, results: await loadResults(file) });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-configs-'));
  const files = await bankingResultsFiles(dir);
  [noKnowledge, bm25, mock] = await Promise.all([
    labelled('nk.json', files.byConfig.no_knowledge),
    labelled('bm25.json', files.byConfig.bm25),
    labelled('mock.json', files.mock),
  ]);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('compareRetrievalConfigs', () => {
  it('each configuration: avg reward and pass^1, pass^2 over its graded simulations', () => {
    const { domain, configs } = compareRetrievalConfigs([noKnowledge, bm25]);
    expect(domain).toBe('banking_knowledge');
    // Successes of 2 trials — no_knowledge: 004 1, 005 0, 075 2, 076 0; bm25: 004 2, 005 1, 075 2, 076 0.
    expect(configs).toEqual([
      { config: 'no_knowledge', label: 'nk.json', simulations: 8, avgReward: 3 / 8, passHatK: { 1: 3 / 8, 2: 1 / 4 }, infraErrors: 0 },
      { config: 'bm25', label: 'bm25.json', simulations: 8, avgReward: 5 / 8, passHatK: { 1: 5 / 8, 2: 1 / 2 }, infraErrors: 0 },
    ]);
  });

  it("each task's average reward per configuration and the later one minus the first", () => {
    const { tasks, leftOut } = compareRetrievalConfigs([noKnowledge, bm25]);
    expect(Object.fromEntries(tasks.map((t) => [t.taskId, [...t.avgRewards, ...t.deltas]]))).toEqual({
      task_004: [0.5, 1, 0.5],
      task_005: [0, 0.5, 0.5],
      task_075: [1, 1, 0],
      task_076: [0, 0, 0],
    });
    expect(leftOut).toEqual([]);
    // The other way round, the deltas change sign.
    expect(compareRetrievalConfigs([bm25, noKnowledge]).tasks.find((t) => t.taskId === 'task_004')?.deltas).toEqual([-0.5]);
  });

  it('only the tasks every configuration evaluated count; the others are named', () => {
    const fewer = { ...bm25, results: { ...bm25.results, simulations: bm25.results.simulations.filter((s) => s.task_id !== 'task_075') } };
    const comparison = compareRetrievalConfigs([noKnowledge, fewer]);
    expect(comparison.tasks.map((t) => t.taskId)).not.toContain('task_075');
    expect(comparison.leftOut).toEqual(['task_075']);
    // no_knowledge without task_075: 004 .5, 005 0, 076 0.
    expect(comparison.configs[0]!.avgReward).toBeCloseTo(1 / 6, 12);
  });

  it('refuses other domains, a run without a configuration, the same configuration twice, and a single run', () => {
    expect(() => compareRetrievalConfigs([noKnowledge, mock])).toThrow('The runs are of different domains: banking_knowledge, mock');
    expect(() => compareRetrievalConfigs([mock, { ...mock, label: 'again.json' }])).toThrow('mock.json records no retrieval configuration (a mock run)');
    expect(() => compareRetrievalConfigs([bm25, noKnowledge, { ...bm25, label: 'bm25-again.json' }])).toThrow(
      'More than one run of retrieval configuration bm25: bm25.json, bm25-again.json',
    );
    expect(() => compareRetrievalConfigs([bm25])).toThrow('Give at least two runs to compare');
  });
});
