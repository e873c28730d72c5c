// The viewer over banking_knowledge results files the engine made, one per retrieval configuration, and a mock
// run (`tau2-edge view FILE --web`): the runs page shows and filters by configuration, a run page names its
// configuration and offers the other configurations' runs to compare, and compare shows both configurations.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebView } from '../../src/cli/view/web.ts';
import type { WebView } from '../../src/cli/view/web.ts';
import { bankingResultsFiles } from '../support/banking-runs.ts';

let dir: string;
let web: WebView;
const NK = 'banking-no_knowledge.json';
const BM25 = 'banking-bm25.json';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-view-configs-'));
  const files = await bankingResultsFiles(dir);
  web = await startWebView([files.byConfig.no_knowledge, files.byConfig.bm25, files.mock]);
}, 120_000);
afterAll(async () => {
  await web?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = async (route: string): Promise<string> => {
  const response = await fetch(`${web.url}${route}`);
  expect(response.status).toBe(200);
  return response.text();
};

/** The runs the page lists, with the configuration each row shows. */
const listed = (page: string): Record<string, string> =>
  Object.fromEntries([...page.matchAll(/<tr data-run="([^"]+)" data-status="[^"]*" data-retrieval-config="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));

const field = (page: string, name: string): string | undefined => new RegExp(`data-field="${name}">([^<]*)<`).exec(page)?.[1];

describe('the viewer split by retrieval configuration', () => {
  it('the runs page shows each run\'s configuration and offers the recorded ones as a filter', async () => {
    const page = await get('/');
    expect(listed(page)).toEqual({ [NK]: 'no_knowledge', [BM25]: 'bm25', 'mock.json': '' });
    const filter = /<select name="retrieval_config">([\s\S]*?)<\/select>/.exec(page)![1]!;
    expect([...filter.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual(['', 'bm25', 'no_knowledge']);
  });

  it('filtering by a configuration lists its runs only; "any" lists all', async () => {
    const page = await get('/?retrieval_config=bm25');
    expect(listed(page)).toEqual({ [BM25]: 'bm25' });
    expect(page).toContain('1 run match the filter');
    expect(page).toMatch(/<option value="bm25" selected>/);
    expect(Object.keys(listed(await get('/?retrieval_config=')))).toHaveLength(3);
    expect(listed(await get('/?retrieval_config=grep_only'))).toEqual({});
  });

  it("a run page names its configuration and links a comparison with the other configuration's run", async () => {
    const page = await get(`/runs/${NK}`);
    expect(field(page, 'retrieval-config')).toBe('no_knowledge');
    const others = /<ul id="other-configs">([\s\S]*?)<\/ul>/.exec(page)![1]!;
    expect([...others.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual([`/compare?a=${NK}&amp;b=${BM25}`]);
    // A run without a configuration names none and offers none.
    const mock = await get('/runs/mock.json');
    expect(field(mock, 'retrieval-config')).toBeUndefined();
    expect(mock).not.toContain('other-configs');
  });

  it('compare shows both configurations and the per-task deltas of the engine-graded runs', async () => {
    const page = await get(`/compare?a=${NK}&b=${BM25}`);
    expect([field(page, 'config-a'), field(page, 'config-b')]).toEqual(['no_knowledge', 'bm25']);
    expect([field(page, 'avg-a'), field(page, 'avg-b')]).toEqual(['0.375', '0.625']);
    const delta = (task: string) => new RegExp(`<tr data-task="${task}">[\\s\\S]*?data-field="delta">([^<]*)<`).exec(page)?.[1];
    expect(['task_004', 'task_005', 'task_075', 'task_076'].map(delta)).toEqual(['+0.500', '+0.500', '±0.000', '±0.000']);
    // The picker names each run by its id and date, and its configuration.
    expect(page).toMatch(new RegExp(`<option value="${BM25}" selected>${BM25.slice(0, 12)} · \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC · banking_knowledge · bm25 · agent-bm25</option>`));
    // Two runs without a configuration show none.
    expect(await get('/compare?a=mock.json&b=mock.json')).not.toContain('config-a');
  });
});
