// The results file is streamed a page of simulations at a time: the text is still exactly the reference's
// json.dumps of the whole file, with every simulation, in completion order, with its messages.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { simulationRows, writeSimulations } from '../../src/worker/db/simulations.ts';
import { call, startRun, waitForRun } from './support/api.ts';
import { scriptedRun } from './support/script.ts';

const resultsText = async (runId: string): Promise<string> => {
  const response = await call(`/v1/runs/${runId}/results`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return response.text();
};

describe('GET /v1/runs/:id/results', () => {
  it('streams a run larger than a page as one exact results file', async () => {
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    await waitForRun(runId);
    const first = ResultsSchema.parse(parsePyJson(await resultsText(runId))).simulations[0]!;
    // 250 simulations: two full pages and a partial one.
    const copies = Array.from({ length: 249 }, (_, i) => ({ ...first, id: `${first.id}-${i + 1}`, trial: i + 1 }));
    const createdAt = new Date().toISOString();
    await writeSimulations(env.DB, copies.map((copy) => simulationRows(runId, copy, createdAt)));

    const text = await resultsText(runId);
    expect(dumpsPy(parsePyJson(text))).toBe(text);
    const results = ResultsSchema.parse(parsePyJson(text));
    expect(results.simulations.map((s) => s.id)).toEqual([first.id, ...copies.map((c) => c.id)]);
    for (const simulation of results.simulations) expect(simulation.messages).toEqual(first.messages);
    expect(results.simulation_index).toBeNull();
    expect(results.tasks.map((t) => t.id)).toEqual(['create_task_1']);
  });
});
