// The a2a agent's seat at a run's episodes: the Worker plays each episode's agent turns by asking the A2A agent at
// the run's agent endpoint, one turn per TURNS queue message (which carries the conversation's state to the next).
// The first turn, once the episode has started, issues the episode's MCP token and briefs the agent with it; the
// agent's tool calls reach the episode over MCP, its reply is stepped in as its turn. An agent that fails or breaks
// the protocol ends the episode as an infrastructure error naming what was wrong.
import { connectA2aAgent } from '../../core/a2a/agent-client.ts';
import { lastUserText, playTurn } from '../../core/a2a/play-episode.ts';
import type { EpisodeBriefing, EpisodeTurns } from '../../core/a2a/play-episode.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { episodeIdOf, episodeKey, episodeOfId } from '../episode/launch.ts';
import { findEpisode } from '../episode/handle.ts';
import type { EpisodeHandle } from '../episode/handle.ts';
import { openingOf, stepEpisode } from '../episode/service.ts';
import { isRefused } from '../episode/refusals.ts';
import { issueEpisodeToken } from '../mcp/episode-token.ts';
import { agentEndpointHeaders } from '../agent-endpoint.ts';
import { endpointIssue } from '../credentials.ts';
import { InfraError } from '../../core/llm/types.ts';
import type { RunRow } from '../db/runs.ts';

/** One agent turn to play: the episode, where the agent is, and the conversation so far. */
export interface SeatTurn {
  readonly seat: {
    readonly episode_id: string;
    readonly tenant: string;
    /** The Worker's origin as the run's launch reached it: the MCP URL the agent is given. */
    readonly origin: string;
    readonly agent_url: string;
    /** The user's words to answer; null until the episode has started and the agent is briefed. */
    readonly user_text: string | null;
    readonly context_id: string | null;
    readonly open_task: string | null;
  };
}

export const isSeatTurn = (body: unknown): body is SeatTurn => typeof body === 'object' && body !== null && 'seat' in body;

/** Where the agent's turns go: the episode service, as the step API would call it. */
const turnsOf = (env: Env, handle: EpisodeHandle): EpisodeTurns => ({
  currentStep: async () => {
    const view = await env.EPISODE.getByName(handle.key).observe(0, true);
    return view === null || view.done ? null : view.step;
  },
  speak: async (step, text) => {
    const stepped = await stepEpisode(env, handle, { step, message: { role: 'assistant', content: text } });
    if (isRefused(stepped)) throw new InfraError(`The a2a agent's turn ${step} was refused: ${JSON.stringify(stepped)}`, { retryable: false });
    return stepped.answer.done ? null : (lastUserText(stepped.answer.observation.messages) ?? '');
  },
});

/** Plays one turn; answers the next turn to play (later, when the episode has not started), or null at the end. */
export const playSeatTurn = async (env: Env, { seat }: SeatTurn): Promise<SeatTurn | null> => {
  const found = await findEpisode(env, seat.tenant, seat.episode_id);
  if (isRefused(found)) return null;
  const { handle, run } = found;
  let userText = seat.user_text;
  let briefing: EpisodeBriefing | null = null;
  if (userText === null) {
    const opened = await openingOf(env, handle);
    if (isRefused(opened)) return opened.kind === 'not_ready' ? { seat } : null;
    userText = lastUserText(opened.opening.observation.messages);
    if (opened.opening.done || userText === null) return null;
    const mcp = { url: `${seat.origin}/v1/episodes/${seat.episode_id}/mcp`, token: await issueEpisodeToken(env, seat.tenant, seat.episode_id) };
    briefing = { episode_id: seat.episode_id, mcp, policy: opened.opening.observation.policy ?? '' };
  }
  const agent = await connectA2aAgent(seat.agent_url, { headers: await agentEndpointHeaders(env, run.id, seat.agent_url) });
  // The card names where to send messages: that address follows the endpoint rules too.
  const issue = endpointIssue(agent.endpoint.url, env);
  if (issue) throw new InfraError(`A2A agent ${seat.agent_url}: its card's endpoint ${agent.endpoint.url} is not allowed: ${issue}`, { retryable: false });
  const conversation = agent.conversation({ contextId: seat.context_id, openTask: seat.open_task });
  const next = await playTurn(turnsOf(env, handle), conversation, userText, briefing);
  if (next === null) return null;
  const { contextId, openTask } = conversation.state();
  return { seat: { ...seat, user_text: next, context_id: contextId, open_task: openTask } };
};

const SEND_BATCH = 100;

/** Seats the run's a2a agent at each of its episodes: their first turns, played once each episode has started. */
export const seatAgent = async (env: Env, run: RunRow, agentUrl: string, episodes: readonly EpisodeRef[], origin: string): Promise<void> => {
  const turns = episodes.map((ref): SeatTurn => ({
    seat: { episode_id: episodeIdOf(episodeKey(run.id, ref)), tenant: run.tenantId, origin, agent_url: agentUrl, user_text: null, context_id: null, open_task: null },
  }));
  for (let i = 0; i < turns.length; i += SEND_BATCH) await env.TURNS.sendBatch(turns.slice(i, i + SEND_BATCH).map((body) => ({ body })));
};

/** Ends the seat's episode as an infrastructure error: the agent could not play its turn. */
export const endSeat = async (env: Env, { seat }: SeatTurn, reason: string): Promise<void> => {
  const ref = episodeOfId(seat.episode_id);
  if (ref === null) return;
  await env.EPISODE.getByName(ref.key).failExternalTurn(reason);
};
