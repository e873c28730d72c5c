// One episode (task × trial) as a SQLite-backed Durable Object: the thin composition of its RPC surface, its alarm
// and its storage. The step machine is the core's (core/episode/machine.ts); the episode's life in the object is
// episode.ts. It names the turn it waits for (`pendingTurn`); a producer computes it and hands back the result
// for that step (`submitTurn`), applied exactly once. Built-in turns are produced in the object or by the TURNS
// queue (production.ts); an external participant's turns come through its own protocol (external.ts). The run
// checks on its running episodes periodically (a repeated `start`), so a turn lost in a crash is asked for again;
// an episode with an external participant watches itself with its alarm instead (the idle limit of the client's
// turn, or a built-in turn's watchdog), so that one left open is evicted while it waits. At the end the episode
// grades (grading.ts) and hands its simulation to its run, which writes it to D1.
import { DurableObject } from 'cloudflare:workers';
import { infrastructureErrorRun } from '../../core/runner/simulation.ts';
import { GRADING_STAGE } from '../../core/runner/grading-failure.ts';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { asPendingTurn, expireTurn } from '../../core/episode/machine.ts';
import type { EpisodePhase, ExternalObservation, ExternalTurnOutcome, PendingTurn, TurnOutcome, TurnResponse, TurnResult } from '../../core/episode/turn.ts';
import { externalRole } from './context.ts';
import { Episode } from './episode.ts';
import { awaitTurn, observe, submitExternalTurn } from './external.ts';
import { TURN_WATCHDOG_MS } from './production.ts';
import { noteObjectLoaded } from '../live-objects.ts';
import { waitMs } from './waits.ts';
import type { StoredRows } from './store.ts';

/** Where an episode stands (plain values: an RPC result cannot carry PyFloats). */
export interface EpisodeSnapshot {
  readonly phase: EpisodePhase | null;
  readonly attempt: number;
  readonly stepCount: number | null;
  readonly done: boolean | null;
}

/** Who checks on a started episode: its run, periodically, or the episode itself, with its alarm. */
export type EpisodeWatch = 'run' | 'self';

export class EpisodeDO extends DurableObject<Env> {
  private readonly episode: Episode;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    noteObjectLoaded(ctx.id);
    this.episode = new Episode({ env, storage: ctx.storage, waitUntil: (promise) => ctx.waitUntil(promise), abort: (reason) => ctx.abort(reason) });
  }

  /**
   * Stores the launch and initializes the episode up to its first turn, which it asks for (here rather than in an
   * alarm: an invocation and a commit less); launching a started episode again is the run's check on it. A fork
   * group's episode is also given its group's starting rows (see fork.ts), beside the launch: they are written
   * once, as its own rows, and the launch it stores stays small.
   */
  async start(launch: string, forkState?: StoredRows): Promise<EpisodeWatch> {
    const { episode } = this;
    if (episode.phase() !== undefined) {
      await this.checkOn();
    } else {
      episode.store.assumeEmpty();
      // The attempt is stored once it changes: reads default to 1.
      episode.store.put('launch', launch);
      episode.store.put('phase', 'running');
      try {
        await episode.initialize(await episode.loadContext(), forkState);
      } catch (error) {
        // The launch is stored: the alarm initializes it again (e.g. once the domain data can be read).
        console.warn(`episode start deferred: ${error instanceof Error ? error.message : String(error)}`);
        await episode.armAlarm(Date.now());
      }
    }
    // An episode with an external participant watches itself; one of built-in participants is its run's.
    const context = await episode.loadContext().catch(() => null);
    return context !== null && externalRole(context) !== null ? 'self' : 'run';
  }

  /** Stops the episode unless it already finished; returns whether it was stopped. */
  async cancel(): Promise<boolean> {
    const phase = this.episode.phase();
    if (phase !== 'running') return phase === 'cancelled';
    this.episode.store.put('phase', 'cancelled');
    await this.episode.disarm();
    return true;
  }

  /** Forgets everything, so the episode can be launched afresh (re-running an infrastructure error). */
  async reset(): Promise<void> {
    await this.episode.disarm();
    this.episode.wipe();
  }

  snapshot(): EpisodeSnapshot {
    const fields = this.episode.store.cursorFields();
    const phase = this.episode.phase();
    return { phase: phase ?? null, attempt: phase === undefined ? 0 : this.episode.attempt(), stepCount: fields?.step_count ?? null, done: fields?.done ?? null };
  }

  /**
   * The messages of the current attempt as Python-JSON text, which a fork of the episode copies; null when it has
   * none here (not started yet, or finished: its simulation is in D1 then).
   */
  async recordedMessages(): Promise<string | null> {
    if (this.episode.phase() !== 'running') return null;
    const live = this.episode.loadLive(await this.episode.loadContext());
    return live === null ? null : dumpsPy(live.state.trajectory as unknown as PyInput);
  }

  /**
   * The stored rows up to the state that waited for step `atStep`, which a fork of it copies; `beyond` when the
   * episode has not reached that step; null when they are not here (not running) or cannot say (see rowsAt).
   */
  forkRows(atStep: number): { kind: 'rows'; rows: StoredRows } | { kind: 'beyond'; steps: number } | null {
    return this.episode.phase() === 'running' ? this.episode.store.rowsAt(atStep) : null;
  }

  /** The participant turn the episode waits for, or null (not started, tool calls or evaluation, ended). */
  async pendingTurn(): Promise<PendingTurn | null> {
    if (this.episode.phase() !== 'running') return null;
    const context = await this.episode.loadContext();
    const turn = this.episode.describePending(context, this.episode.loadLive(context));
    return turn === null ? null : asPendingTurn(turn);
  }

  /**
   * Applies the result of built-in turn `step` exactly once: a repeat gets the stored outcome; another result for
   * an answered step, a step not waited for, or an episode no longer running is refused. With `produceNext`, the
   * caller produces the next turn itself (`pending`) instead of its being sent to the queue.
   */
  async submitTurn(step: number, result: TurnResult, options: { produceNext?: boolean } = {}): Promise<TurnOutcome & { pending?: PendingTurn }> {
    const { pending, ...outcome } = await this.episode.applyResult(step, result, options.produceNext === true);
    return pending === undefined ? outcome : { ...outcome, pending: asPendingTurn(pending) };
  }

  /** Ends the episode as an infrastructure error naming why its external participant cannot go on. */
  failExternalTurn(message: string): Promise<void> {
    return this.episode.failExternal(message);
  }

  /** Applies the external participant's turn `n` exactly once (see external.ts). */
  submitExternalTurn(n: number, message: TurnResponse, options: { produceNext?: boolean } = {}): Promise<ExternalTurnOutcome & { pending?: PendingTurn }> {
    return this.episode.oneAtATime(() => submitExternalTurn(this.episode.external, n, message, options.produceNext === true));
  }

  /** What the external participant sees now (see ExternalObservation); null for an episode without one. */
  observe(since = 0, withGiven = false): Promise<ExternalObservation | null> {
    return observe(this.episode.external, since, withGiven);
  }

  /**
   * What the external participant sees once the episode waits for it again or has ended (null), or as it stands
   * after `boundMs` (at most the episode wait limit): the caller waits here and is told, rather than polling.
   */
  awaitTurn(since = 0, withGiven = false, boundMs = 0): Promise<ExternalObservation | null> {
    return awaitTurn(this.episode.external, since, withGiven, Math.min(boundMs, waitMs(this.env)));
  }

  override async alarm(): Promise<void> {
    const { episode } = this;
    episode.alarmFired();
    const phase = episode.phase();
    if (phase === 'written') return episode.notifyRun(await episode.loadContext());
    if (phase !== 'running') return;
    const context = await episode.loadContext();
    const failure = episode.store.get<string>('failure');
    if (failure !== undefined) {
      const raisedWhileGrading = episode.store.get<string>('failure_stage') === GRADING_STAGE;
      return episode.finish(context, infrastructureErrorRun(context.spec, crypto.randomUUID(), Date.now(), new Error(failure), episode.attempt(), raisedWhileGrading));
    }
    const live = episode.loadLive(context);
    if (live === null) return episode.initialize(context);
    if (live.state.done) return episode.evaluate(context, live.state);
    if (live.pending === externalRole(context)) {
      // An external turn is not asked for again: it is waited for until the idle limit, then the episode ends.
      const expires = (episode.store.get<number>('asked_at') ?? Date.now()) + episode.externalTurnTtlMs();
      if (Date.now() < expires) return episode.armAlarm(expires);
      episode.store.save(expireTurn(live));
      return episode.evaluate(context, live.state);
    }
    // A built-in turn's watchdog: one asked for recently still has its time; one not answered in time is asked again.
    const { production } = episode;
    if (production.askedRecently()) return externalRole(context) === null ? undefined : episode.armAlarm(production.askedAt! + TURN_WATCHDOG_MS);
    return episode.schedule();
  }

  /**
   * The run's periodic check: a built-in turn not answered within TURN_WATCHDOG_MS is asked for again, and an
   * episode done but not graded (grading cut short) is graded. One with an alarm armed is left to it.
   */
  private async checkOn(): Promise<void> {
    const { episode } = this;
    if (!episode.takesTurns() || episode.isGrading() || (await this.ctx.storage.getAlarm()) !== null) return;
    const context = await episode.loadContext();
    const live = episode.loadLive(context);
    if (live?.state.done) return episode.evaluate(context, live.state);
    // A turn asked for recently still has its time; an external turn is its client's, within its idle limit.
    if (live?.pending != null && (live.pending === externalRole(context) || episode.production.askedRecently())) return;
    return episode.schedule();
  }
}
