// `tau2-edge compare-modes --by retrieval-config FILE FILE…` on banking_knowledge results files the engine made:
// per-configuration simulations, avg reward and pass^k, then each task's reward and delta; mixed domains and
// misused flags are refused with the reason.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../support/cli.ts';
import { bankingResultsFiles } from '../support/banking-runs.ts';
import type { BankingFiles } from '../support/banking-runs.ts';

let dir: string;
let files: BankingFiles;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-compare-configs-'));
  files = await bankingResultsFiles(dir);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const cells = (lines: readonly string[]) => lines.map((l) => l.trim().split(/\s+/));

describe('tau2-edge compare-modes --by retrieval-config', () => {
  it('prints each configuration with its pass^k, then per-task rewards and deltas against the first file', async () => {
    const { no_knowledge: nk, bm25 } = files.byConfig;
    const { code, lines, errors } = await capture(['compare-modes', '--by', 'retrieval-config', nk, bm25]);
    expect(code, errors).toBe(0);
    expect(lines[0]).toBe('banking_knowledge by retrieval configuration, on the 4 task(s) every configuration evaluated');
    expect(cells(lines.slice(1))).toEqual([
      ['configuration', 'file', 'simulations', 'avg', 'reward', 'pass^1', 'pass^2', 'infra', 'errors'],
      ['no_knowledge', nk, '8', '0.3750', '0.3750', '0.2500', '0'],
      ['bm25', bm25, '8', '0.6250', '0.6250', '0.5000', '0'],
      ['task', 'no_knowledge', 'bm25', 'bm25', '-', 'no_knowledge'],
      ['task_004', '0.5000', '1.0000', '+0.5000'],
      ['task_005', '0.0000', '0.5000', '+0.5000'],
      ['task_075', '1.0000', '1.0000', '+0.0000'],
      ['task_076', '0.0000', '0.0000', '+0.0000'],
    ]);
  });

  it('refuses files of different domains, naming them', async () => {
    const { code, errors } = await capture(['compare-modes', '--by', 'retrieval-config', files.byConfig.bm25, files.mock]);
    expect(code).toBe(1);
    expect(errors).toContain('The runs are of different domains: banking_knowledge, mock');
  });

  it('refuses the same configuration twice, an unknown split, and --by mixed with --default / --solo', async () => {
    const { bm25 } = files.byConfig;
    const twice = await capture(['compare-modes', '--by', 'retrieval-config', bm25, bm25]);
    expect(twice.code).toBe(1);
    expect(twice.errors).toContain(`More than one run of retrieval configuration bm25: ${bm25}, ${bm25}`);
    const unknown = await capture(['compare-modes', '--by', 'model', bm25, files.byConfig.no_knowledge]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.errors).toContain("Allowed choices are retrieval-config");
    const mixed = await capture(['compare-modes', '--by', 'retrieval-config', '--default', bm25, bm25]);
    expect(mixed.code).toBe(1);
    expect(mixed.errors).toContain('--by compares the FILEs given, not --default / --solo');
    const neither = await capture(['compare-modes', bm25]);
    expect(neither.code).toBe(1);
    expect(neither.errors).toContain('compare-modes takes --default FILE --solo FILE, or --by retrieval-config FILE FILE…');
  });
});
