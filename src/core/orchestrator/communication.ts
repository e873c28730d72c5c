// Opt-in communication-protocol enforcement (reference: Orchestrator.check_communication_error).
import type { EpisodeState } from '../schemas/episode.ts';
import { STOP_TOKEN } from '../agents/prompts.ts';
import { isSolo } from './deps.ts';

const hasText = (content: string | null): boolean => content !== null && content.trim() !== '';

/** Ends the episode as `agent_error` / `user_error` when the last participant message breaks the protocol. */
export const checkCommunication = (state: EpisodeState): EpisodeState => {
  if (!state.enforce_communication_protocol || state.from_role === 'env') return state;
  const message = state.trajectory[state.trajectory.length - 1];
  if (!message || (message.role !== 'assistant' && message.role !== 'user')) return state;
  const toolCall = message.tool_calls !== null;
  const text = hasText(message.content);
  const soloText = state.from_role === 'agent' && isSolo(state) && text && !message.content!.includes(STOP_TOKEN);
  if ((!toolCall && !text) || (toolCall && text) || soloText) {
    return { ...state, done: true, termination_reason: state.from_role === 'agent' ? 'agent_error' : 'user_error' };
  }
  return state;
};
