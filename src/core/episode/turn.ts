// The turn interface of an episode: what a producer must compute next (a participant's model turn), the
// result it hands back, and what an external participant observes. Values are plain (they cross Durable Object RPC and HTTP); Python values travel as
// Python-JSON text so int/float kinds survive.
import { parsePyJson } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { LlmResponse, LlmUsage, ProviderState } from '../llm/types.ts';
import { callUsage } from '../llm/usage.ts';
import type { TurnRole } from '../orchestrator/step.ts';
import type { TurnRequest } from '../agents/participant.ts';

/**
 * running → finished (the run has its simulation); or cancelled. `written` (in D1, the run not told yet) is
 * the phase between them of episodes stored by an earlier version, which wrote their simulations themselves.
 */
export type EpisodePhase = 'running' | 'written' | 'finished' | 'cancelled';

export interface PendingTurn {
  /** The episode's Durable Object name. */
  readonly episode: string;
  readonly run_id: string;
  /** The run's tenant: whose provider the producer calls. */
  readonly tenant: string;
  readonly task_id: string;
  readonly trial: number;
  /** The step index this turn answers: increases with every turn, never reused (not across attempts either). */
  readonly step: number;
  readonly role: TurnRole;
  /** Whether a client outside the run plays this role (an external agent): producers leave the turn to it. */
  readonly external: boolean;
  /** The URL of the run's agent endpoint, for an agent turn that goes there instead of to the provider. */
  readonly agent_endpoint: string | null;
  /** The run's model for this role. */
  readonly model: string;
  /** `dumpsPy({ messages, tools, tool_choice, llm_args })`: the participant's chat-completions request. */
  readonly request: string;
}

/** A pending turn as the episode object holds it: its request as values, written as text only to cross RPC. */
export type LocalTurn = Omit<PendingTurn, 'request'> & { readonly request: TurnRequest };

export interface TurnResponse {
  readonly kind: 'response';
  readonly content: string | null;
  /** `arguments` is the JSON text the model wrote; the engine parses it. */
  readonly tool_calls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  /** USD; 0 when unknown. */
  readonly cost?: number;
  readonly usage?: LlmUsage | null;
  /** The provider's response body as Python-JSON text. */
  readonly raw_data?: string | null;
  readonly generation_time_seconds?: number | null;
  /** The provider's reasoning state of the turn as Python-JSON text, for the participant's next request. */
  readonly provider_state?: string | null;
}

/** The producer could not get an answer (the provider failed after its retries): an infrastructure error. */
export interface TurnFailure {
  readonly kind: 'error';
  readonly message: string;
  /** false: the provider refused, and another attempt would only repeat it (absent: a failure worth retrying). */
  readonly retryable?: boolean;
}

export type TurnResult = TurnResponse | TurnFailure;

export type TurnOutcome =
  | {
      readonly status: 'applied';
      readonly step: number;
      /** What the episode waits for now: another turn, its end (evaluation), or nothing (cancelled). */
      readonly next: 'turn' | 'finishing' | 'cancelled';
      readonly next_step: number | null;
    }
  | {
      readonly status: 'refused';
      /** not_pending: not the turn waited for; conflict: that step was already answered otherwise. */
      readonly reason: 'not_pending' | 'conflict' | 'not_running';
      readonly pending_step: number | null;
    };

/**
 * What the external participant of an episode sees: its view of the conversation in the reference's wire
 * format (OpenAI chat-completions messages), from after its turn `since - 1` (all of it for `since` 0).
 */
export interface ExternalObservation {
  readonly phase: EpisodePhase | null;
  /** The external participant's next turn number (how many of its turns were applied). */
  readonly step: number;
  /** Whether the episode waits for that turn now. */
  readonly waiting: boolean;
  readonly done: boolean;
  readonly termination_reason: string | null;
  /** The role the external participant plays. */
  readonly role: TurnRole;
  /** JSON text of the messages (a list of wire-format messages): RPC types cannot carry their recursive type. */
  readonly messages: string;
  /** The ids of the participant's tool calls among those messages that failed (see failedToolCalls). */
  readonly failed_tool_calls: readonly string[];
  /** What the participant is given, when asked for (it does not change during the episode). */
  readonly given: ParticipantGiven | null;
}

export interface ParticipantGiven {
  /** The domain policy (what the agent is given). */
  readonly policy: string;
  /** The external user's system prompt (simulation guidelines and scenario); null for an external agent. */
  readonly instructions: string | null;
  /** Python-JSON text of the participant's tools in OpenAI function format (as the reference sends them). */
  readonly tools: string;
}

/** The answer to an external participant's turn `n` (its own count of turns, from 0). */
export type ExternalTurnOutcome =
  | {
      readonly status: 'applied';
      readonly step: number;
      /** What the participant sees now, when its turn has come again at once (e.g. after its tool calls). */
      readonly view?: ExternalObservation;
    }
  | {
      readonly status: 'refused';
      /** invalid: the message is not one the participant may send (`message` says why); done: the episode is over. */
      readonly reason: 'not_pending' | 'conflict' | 'not_running' | 'not_external' | 'invalid' | 'done';
      /** The turn the episode waits for from the external participant, if any. */
      readonly pending_step: number | null;
      readonly message?: string;
      /** For `done`: the participant's final applied turn (null when none was). */
      readonly final_step?: number | null;
    };

/** The external participant's last applied turn: its number and its message as stored (JSON text). */
export interface FinalTurn {
  readonly n: number;
  readonly result: string;
}

/**
 * A turn sent to an episode that is over: an exact repeat of the final turn is answered as applied (its answer
 * is the episode's end), any other is refused naming the final turn.
 */
export const afterTheEnd = (final: FinalTurn | null, n: number, resultText: string): ExternalTurnOutcome =>
  final !== null && n === final.n && resultText === final.result
    ? { status: 'applied', step: n }
    : { status: 'refused', reason: 'done', pending_step: null, final_step: final?.n ?? null };

/** What the participant's model answered, as the engine reads a provider response. */
export const turnResponse = (result: TurnResponse): LlmResponse => ({
  content: result.content,
  toolCalls: result.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
  // The reference's key order, then the parts the provider reported (cached, reasoning tokens).
  usage: result.usage
    ? callUsage(result.usage.prompt_tokens, result.usage.completion_tokens, {
        reasoning: result.usage.reasoning_tokens,
        cacheRead: result.usage.cache_read_tokens,
        cacheWrite: result.usage.cache_write_tokens,
      })
    : null,
  cost: result.cost ?? 0,
  rawData: result.raw_data ? (parsePyJson(result.raw_data) as Record<string, PyValue>) : null,
  generationTimeSeconds: result.generation_time_seconds ?? null,
  providerState: result.provider_state ? (parsePyJson(result.provider_state) as unknown as ProviderState) : null,
});
