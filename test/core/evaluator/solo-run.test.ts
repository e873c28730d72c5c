// Re-grading recognises solo mode as the reference's evaluate_trajectories does: llm_agent_solo with dummy_user.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isSoloRun } from '../../../src/core/evaluator/regrade.ts';
import { parsePyJson } from '../../../src/core/py/index.ts';
import { ResultsSchema } from '../../../src/core/schemas/simulation.ts';

const fixture = ResultsSchema.parse(parsePyJson(await readFile(new URL('../../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
const withImplementations = (agent: string, user: string) => ({
  info: { ...fixture.info, agent_info: { ...fixture.info.agent_info, implementation: agent }, user_info: { ...fixture.info.user_info, implementation: user } },
});

describe('solo mode of a results file', () => {
  it('needs both the solo agent and the dummy user', () => {
    expect(isSoloRun(withImplementations('llm_agent_solo', 'dummy_user'))).toBe(true);
    expect(isSoloRun(withImplementations('llm_agent_solo', 'user_simulator'))).toBe(false);
    expect(isSoloRun(withImplementations('llm_agent', 'dummy_user'))).toBe(false);
    expect(isSoloRun(fixture)).toBe(false);
  });
});
