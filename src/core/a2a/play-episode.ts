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

/** The agent's seat at one episode, however it is reached (the HTTP API, or the Worker itself). */
export interface AgentSeat {
  readonly briefing: EpisodeBriefing;
  /** The user's words the agent answers first. */
  readonly opening: string;
  /** The episode's current step, or null once it has ended (e.g. the user stopped while the agent spoke over MCP). */
  currentStep(): Promise<number | null>;
  /** The agent's words as its turn answering `step`: the user's reply, or null once the episode has ended. */
  speak(step: number, text: string): Promise<string | null>;
}

/** Plays the episode to its end; an agent's failure to answer is thrown as the client's infrastructure error. */
export const playEpisode = async (seat: AgentSeat, conversation: A2aConversation): Promise<void> => {
  const briefing = seat.briefing as unknown as Readonly<Record<string, unknown>>;
  let userText: string | null = seat.opening;
  for (let first = true; userText !== null; first = false) {
    const reply = await conversation.send({ text: userText, ...(first ? { data: briefing } : {}) });
    const step = await seat.currentStep();
    if (step === null) return;
    userText = await seat.speak(step, reply);
  }
};
