// An episode played by an A2A agent: each of the simulated user's messages goes to the agent in the episode's
// conversation (one A2A context); the agent calls the domain's tools over the episode's MCP endpoint meanwhile
// (each call a step of the episode), and its reply text is its turn. The first message carries what the agent
// needs to act: the MCP URL, the episode-scoped token and the domain policy, as a data part and in its metadata.
import type { A2aConversation } from './agent-client.ts';

/** What the first message's data part holds. */
export interface EpisodeBriefing {
  readonly episode_id: string;
  readonly mcp: { readonly url: string; readonly token: string };
  /** The domain policy, as the built-in agent's system prompt would give it. */
  readonly policy: string;
}

/** Where the agent's turns go, however the episode is reached (the HTTP API, or the Worker itself). */
export interface EpisodeTurns {
  /** The episode's current step, or null once it has ended (e.g. the user stopped while the agent spoke over MCP). */
  currentStep(): Promise<number | null>;
  /** The agent's words as its turn answering `step`: the user's reply, or null once the episode has ended. */
  speak(step: number, text: string): Promise<string | null>;
}

/** The agent's seat at one episode: its briefing, the user's opening words, and where its turns go. */
export interface AgentSeat extends EpisodeTurns {
  readonly briefing: EpisodeBriefing;
  readonly opening: string;
}

/** The text of the last user message among `messages` (chat-completions format), or null. */
export const lastUserText = (messages: readonly Record<string, unknown>[]): string | null => {
  const user = messages.findLast((m) => m['role'] === 'user' && typeof m['content'] === 'string');
  return user === undefined ? null : (user['content'] as string);
};

/** The user's words as the message to the agent, with the briefing as its data part on the first. */
export const userMessage = (text: string, briefing: EpisodeBriefing | null) => ({
  text,
  ...(briefing === null ? {} : { data: briefing as unknown as Readonly<Record<string, unknown>> }),
});

/**
 * One exchange: the user's words to the agent (with the briefing, on the first), its reply as the episode's turn.
 * Answers the user's next words, or null once the episode has ended.
 */
export const playTurn = async (turns: EpisodeTurns, conversation: A2aConversation, userText: string, briefing: EpisodeBriefing | null): Promise<string | null> => {
  const reply = await conversation.send(userMessage(userText, briefing));
  const step = await turns.currentStep();
  return step === null ? null : turns.speak(step, reply);
};

/** Plays the episode to its end; an agent's failure to answer is thrown as the client's infrastructure error. */
export const playEpisode = async (seat: AgentSeat, conversation: A2aConversation): Promise<void> => {
  let userText: string | null = seat.opening;
  for (let first = true; userText !== null; first = false) userText = await playTurn(seat, conversation, userText, first ? seat.briefing : null);
};
