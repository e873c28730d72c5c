// The external-participant protocol of an episode: the turns of a participant played from outside (an external
// agent or user, through the step API or OpenEnv), each applied exactly once by its own turn number; what that
// participant observes; and its final turn, which a finished episode keeps to answer a repeat of it. The episode
// object is reached through the narrow host below, so the protocol holds no state of its own.
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { participantOf } from '../../core/orchestrator/step.ts';
import { acceptTurn, asPendingTurn, failedToolCalls, participantObservation } from '../../core/episode/machine.ts';
import type { LiveEpisode } from '../../core/episode/machine.ts';
import { afterTheEnd } from '../../core/episode/turn.ts';
import type { EpisodePhase, ExternalObservation, ExternalTurnOutcome, FinalTurn, LocalTurn, ParticipantGiven, PendingTurn, TurnOutcome, TurnResponse } from '../../core/episode/turn.ts';
import { externalRole } from './context.ts';
import type { EpisodeContext } from './context.ts';
import type { EpisodeStore } from './store.ts';
import type { Waiters } from './waiters.ts';

/** What the protocol needs of its episode object. */
export interface ExternalHost {
  readonly store: EpisodeStore;
  phase(): EpisodePhase | undefined;
  loadContext(): Promise<EpisodeContext>;
  loadLive(context: EpisodeContext): LiveEpisode | null;
  /** Whether the simulation is on its way to the run (the episode is over, though its phase still says running). */
  handingOver(): boolean;
  takesTurns(): boolean;
  /** Callers waiting for the episode to change. */
  readonly waiters: Waiters;
  /** Applies an accepted answer as turn `step` and asks for what follows; with `produceNext`, a built-in next turn comes back. */
  applyAnswer(context: EpisodeContext, live: LiveEpisode, step: number, result: TurnResponse, produceNext: boolean): Promise<TurnOutcome & { pending?: LocalTurn }>;
}

/** The external participant's last applied turn and its message, or null (none, or no external participant). */
export const finalTurn = (store: EpisodeStore): FinalTurn | null => {
  const count = store.externalTurnCount();
  const turn = count === 0 ? null : store.externalTurn(count - 1);
  const recorded = turn === null ? null : store.turn(turn.step);
  return recorded === null ? null : { n: count - 1, result: recorded.result };
};

/** What the external participant sees now (see ExternalObservation); null for an episode without one. */
export const observe = async (host: ExternalHost, since: number, withGiven: boolean): Promise<ExternalObservation | null> => {
  const phase = host.phase() ?? null;
  if (phase !== 'running' && phase !== 'written') return null;
  const context = await host.loadContext();
  const live = host.loadLive(context);
  const role = externalRole(context);
  if (role === null || live === null) return null;
  const { store } = host;
  const from = since === 0 ? 0 : (store.externalTurn(since - 1)?.idx ?? Number.MAX_SAFE_INTEGER) + 1;
  const seen = live.state.trajectory.slice(from);
  const given = (): ParticipantGiven => {
    const { participant } = participantOf(live.state, role, live.environment, context.deps);
    const { tools, messages: opening } = participant.request([], live.state.seed);
    return {
      policy: live.environment.policy,
      instructions: role === 'user' ? (opening[0]?.content ?? null) : null,
      tools: dumpsPy((tools ?? []) as unknown as PyInput),
    };
  };
  return {
    role,
    phase,
    step: store.externalTurnCount(),
    waiting: live.pending === role,
    done: live.state.done,
    termination_reason: live.state.termination_reason,
    messages: JSON.stringify(participantObservation(role, seen)),
    failed_tool_calls: failedToolCalls(role, seen),
    given: withGiven ? given() : null,
  };
};

/** Whether the episode ended for good (graded and handed over, or cancelled): nothing more comes to a waiter. */
const ended = (phase: EpisodePhase | undefined): boolean => phase === 'finished' || phase === 'cancelled';

/**
 * What the external participant sees once the episode waits for it again or has ended (null, as `observe`), or
 * as it stands once `boundMs` runs out: the caller is told by the change instead of observing it repeatedly.
 */
export const awaitTurn = (host: ExternalHost, since: number, withGiven: boolean, boundMs: number): Promise<ExternalObservation | null> =>
  host.waiters.until(() => observe(host, since, withGiven), (view) => view?.waiting === true || ended(host.phase()), boundMs);

/**
 * Applies the external participant's turn `n` exactly once: a repeat of an applied message is answered as
 * applied, another message for an applied turn is a conflict, a message the participant may not send is refused
 * as invalid and changes nothing. With `produceNext`, the built-in turn that follows (the user's reply) comes
 * back as `pending` for the caller to produce.
 */
export const submitExternalTurn = async (host: ExternalHost, n: number, message: TurnResponse, produceNext: boolean): Promise<ExternalTurnOutcome & { pending?: PendingTurn }> => {
  const { store } = host;
  const resultText = JSON.stringify(message);
  if (host.phase() === 'finished') return afterTheEnd(store.get<FinalTurn>('final_turn') ?? null, n, resultText);
  if (host.phase() === undefined) return { status: 'refused', reason: 'not_running', pending_step: null };
  const context = await host.loadContext();
  const role = externalRole(context);
  if (role === null) return { status: 'refused', reason: 'not_external', pending_step: null };
  // The phase is read again: it may have changed while the context loaded.
  const live = host.phase() === 'running' ? host.loadLive(context) : null;
  if (host.handingOver() || host.phase() === 'written' || live?.state.done) return afterTheEnd(finalTurn(store), n, resultText);
  const count = store.externalTurnCount();
  const pendingStep = live?.pending === role ? count : null;
  if (n < count) {
    const recorded = store.turn(store.externalTurn(n)!.step);
    return recorded?.result === resultText ? { status: 'applied', step: n } : { status: 'refused', reason: 'conflict', pending_step: pendingStep };
  }
  if (!host.takesTurns()) return { status: 'refused', reason: 'not_running', pending_step: null };
  if (n !== count || live === null || live.pending !== role) return { status: 'refused', reason: 'not_pending', pending_step: pendingStep };
  try {
    acceptTurn(live, message, context.deps);
  } catch (error) {
    return { status: 'refused', reason: 'invalid', pending_step: count, message: error instanceof Error ? error.message : String(error) };
  }
  const step = store.nextStep();
  store.recordExternalTurn(n, step, live.state.trajectory.length);
  const { pending } = await host.applyAnswer(context, live, step, message, produceNext);
  if (pending !== undefined) return { status: 'applied', step: n, pending: asPendingTurn(pending) };
  // Its turn again at once (its tool results are in): what it sees now saves the caller a call.
  const view = live.pending === role ? await observe(host, n + 1, false) : null;
  return view === null ? { status: 'applied', step: n } : { status: 'applied', step: n, view };
};
