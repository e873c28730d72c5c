// How the viewer names a run's agent and user: the model that plays, the kind when it is not the usual one, and
// never a model for a participant no model plays.
import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import type { RunConfigInput } from '../../src/core/schemas/run-config.ts';
import { agentName, playingModels, userName } from '../../src/viewer/participants.ts';

const config = (input: Omit<RunConfigInput, 'domain'>) => RunConfigSchema.parse({ domain: 'mock', llm_agent: 'anthropic/claude-sonnet-4-5', llm_user: 'openai/responses/gpt-5-mini', ...input });

describe('participant names', () => {
  it('the usual agent and user are named by their model alone', () => {
    const usual = config({});
    expect([agentName(usual), userName(usual)]).toEqual(['anthropic/claude-sonnet-4-5', 'openai/responses/gpt-5-mini']);
    expect(playingModels(usual)).toEqual(['anthropic/claude-sonnet-4-5', 'openai/responses/gpt-5-mini']);
  });

  it('another kind played by a model is named with its kind', () => {
    expect(agentName(config({ agent: 'llm_agent_gt' }))).toBe('llm_agent_gt · anthropic/claude-sonnet-4-5');
    expect(agentName(config({ agent: 'llm_agent_solo', user: 'dummy_user' }))).toBe('llm_agent_solo · anthropic/claude-sonnet-4-5');
  });

  it('a participant the caller plays, or no one, is named by its kind, never by the model its run records', () => {
    const external = config({ agent: 'external' });
    expect(agentName(external)).toBe('external');
    expect(playingModels(external)).toEqual(['openai/responses/gpt-5-mini']);
    const playedUser = config({ user: 'external_user' });
    expect(userName(playedUser)).toBe('external_user');
    expect(playingModels(playedUser)).toEqual(['anthropic/claude-sonnet-4-5']);
    expect(userName(config({ agent: 'external_solo', user: 'dummy_user' }))).toBe('dummy_user');
  });

  it('an agent answered by a remote endpoint is named by its host', () => {
    const remote = config({ agent_endpoint: { url: 'https://agents.example.com/v1/chat/completions' } });
    expect(agentName(remote)).toBe('endpoint agents.example.com');
    expect(playingModels(remote)).toEqual(['openai/responses/gpt-5-mini']);
  });
});
