// Results files: a reference results file round-trips without loss and re-grades to its recorded rewards.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { ResultsSchema } from '../../../src/core/schemas/simulation.ts';
import { regradeSimulation } from '../../../src/core/evaluator/regrade.ts';
import { fileDataSource } from '../../../src/cli/data.ts';
import { loaded } from '../../support/domains.ts';

/** The fixture with its reference-data placeholders filled from the fetched data folder. */
const referenceResultsText = async (): Promise<string> => {
  let text = await readFile(new URL('../../fixtures/mock-results-b3.json', import.meta.url), 'utf8');
  const source = fileDataSource();
  for (const file of ['user_simulator/simulation_guidelines.md', 'domains/mock/policy.md']) {
    text = text.replaceAll(`"{{${file}}}"`, JSON.stringify(await source.readText(file)));
  }
  return text;
};

describe('results files', () => {
  it('a reference results file round-trips through the schema without loss', async () => {
    const raw = parsePyJson(await referenceResultsText());
    const parsed = ResultsSchema.parse(raw);
    expect(dumpsPy(parsed as unknown as PyValue, { indent: 2 })).toBe(dumpsPy(raw, { indent: 2 }));
  });

  it('re-grading the reference simulation reproduces its reward and every component', async () => {
    const results = ResultsSchema.parse(parsePyJson(await referenceResultsText()));
    const { domain, data } = await loaded('mock');
    const r = await regradeSimulation(results.simulations[0]!, results, {
      domain,
      data,
      judge: null,
      now: () => '2026-01-01T00:00:00',
    });
    expect(r.differences).toEqual({});
    expect(dumpsPy(r.regraded as unknown as PyValue)).toBe(dumpsPy(results.simulations[0]!.reward_info as unknown as PyValue));
  });
});
