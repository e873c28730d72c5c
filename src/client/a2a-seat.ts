// An A2A agent's seat at an agent-driven episode of the HTTP API (POST /v1/episodes): the briefing its first message
// carries (the episode's MCP URL and token, the policy), the user's words, and its replies as the episode's turns.
import { lastUserText } from '../core/a2a/play-episode.ts';
import type { AgentSeat } from '../core/a2a/play-episode.ts';
import type { EpisodeCreateInput } from '../api/index.ts';
import type { ApiClient } from './index.ts';

/** Creates the episode (the caller plays the agent) and seats the agent at it. */
export const episodeSeat = async (api: ApiClient, request: EpisodeCreateInput): Promise<AgentSeat & { readonly episodeId: string }> => {
  const created = await api.createEpisode({ ...request, role: 'agent' });
  const id = created.episode_id;
  if (created.mcp === undefined) throw new Error(`Episode ${id} has no MCP endpoint to hand the agent`);
  const opening = lastUserText(created.observation.messages);
  if (opening === null) throw new Error(`Episode ${id} opens without a user message`);
  return {
    episodeId: id,
    briefing: { episode_id: id, mcp: created.mcp, policy: created.observation.policy ?? '' },
    opening,
    currentStep: async () => {
      const episode = await api.episode(id);
      return episode.done ? null : episode.step;
    },
    speak: async (step, text) => {
      const answer = await api.step(id, step, { role: 'assistant', content: text });
      return answer.done ? null : (lastUserText(answer.observation.messages) ?? '');
    },
  };
};
