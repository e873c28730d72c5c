// One episode (task × trial) as a SQLite-backed Durable Object: a state machine over the authoritative
// episode state. It names the turn it waits for (`pendingTurn`), a producer computes it and hands back the
// result for that step index (`submitTurn`), which is applied exactly once. Built-in agent and user turns are
// produced here when the provider's cap has a free slot at once, else by the TURNS queue consumer (the same
// loop, src/worker/turns/consumer.ts); external participants' turns come from their clients. Tool calls run
// here, right after the turn that made them. Every applied step is persisted (rows in proportion to the step)
// before the next turn is asked for. The run checks on its running episodes periodically (a repeated `start`):
// a built-in turn not answered in time is asked for again, so a turn lost in a crash is produced anew — one
// alarm per run rather than a watchdog alarm per episode, which cost each episode about a tenth of its CPU.
// An episode with an external participant watches itself instead (its alarm: the idle limit of the client's
// turn, or the watchdog of a built-in turn), so that one left open is not woken by its run's checks and its
// object is evicted while it waits.
// At the end it evaluates and hands the simulation to its run, which writes it to D1.
import { DurableObject } from 'cloudflare:workers';
import pLimit from 'p-limit';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import type { EpisodeState } from '../../core/schemas/episode.ts';
import { envOptions } from '../../core/orchestrator/deps.ts';
import { completeEpisode, infrastructureErrorRun } from '../../core/runner/simulation.ts';
import { isRefusal } from '../../core/runner/refusal.ts';
import type { SimulationDeps, SimulationSpec } from '../../core/runner/simulation.ts';
import { jitterBackoff } from '../../core/llm/retry.ts';
import { decodeLaunch, episodeKey, episodeSpec, launchFromLegacy } from './launch.ts';
import type { EpisodeLaunch } from './launch.ts';
import { episodeDeps } from './deps.ts';
import { EpisodeStore } from './store.ts';
import type { LiveEpisode } from './store.ts';
import { acceptTurn, applyTurn, asPendingTurn, expireTurn, failedToolCalls, participantObservation, startEpisode, turnCall } from './machine.ts';
import { afterTheEnd } from './turn.ts';
import type { EpisodePhase, ExternalObservation, ExternalTurnOutcome, FinalTurn, LocalTurn, ParticipantGiven, PendingTurn, TurnOutcome, TurnResponse, TurnResult } from './turn.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import { participantOf } from '../../core/orchestrator/step.ts';
import { limits } from '../limits.ts';
import { providerGate } from '../runs/provider-gate.ts';
import { providerFor } from '../runs/models.ts';
import { simulationRows } from '../db/simulations.ts';
import { CONTINUE_MS, produceTurnsIfFree } from '../turns/consumer.ts';
import { noteObjectLoaded } from '../live-objects.ts';


/** Where an episode stands (plain values: an RPC result cannot carry PyFloats). */
export interface EpisodeSnapshot {
  readonly phase: EpisodePhase | null;
  readonly attempt: number;
  readonly stepCount: number | null;
  readonly done: boolean | null;
}

/** Only a task graded on NL assertions calls the provider (the judge) while evaluating. */
const isJudged = (state: EpisodeState): boolean => state.task.evaluation_criteria?.reward_basis.includes('NL_ASSERTION') ?? false;

/** A built-in turn not answered in this time is asked for again at the run's next check (its message may have been lost in a crash). */
export const TURN_WATCHDOG_MS = 15_000;

/** Who checks on a started episode: its run, periodically, or the episode itself, with its alarm. */
export type EpisodeWatch = 'run' | 'self';
const GATE_WAIT_MS = 250;

/** What an episode object decodes and builds once per instance: rebuilt only after eviction. */
interface EpisodeContext {
  readonly launch: EpisodeLaunch;
  readonly key: string;
  readonly spec: SimulationSpec;
  readonly deps: SimulationDeps;
}

export class EpisodeDO extends DurableObject<Env> {
  private readonly store: EpisodeStore;
  private context: Promise<EpisodeContext> | null = null;
  /** The current attempt's episode; undefined until read from storage, null before initialization. */
  private live: LiveEpisode | null | undefined = undefined;
  /** When the armed alarm fires (null: none armed by this instance) and when the waited-for turn was asked for. */
  private alarmAt: number | null = null;
  private askedAt: number | null = null;
  /**
   * Submissions are applied one at a time: a tool call may await a model or an endpoint while it runs, and a
   * submission arriving meanwhile must see the outcome stored, not the turn half applied.
   */
  private readonly oneAtATime = pLimit(1);
  /** The production of built-in turns running in this object (see sendTurn), or null. */
  private producing: Promise<void> | null = null;
  /** Set once the simulation is being handed to the run, which may complete before the phase below is stored. */
  private handingOver = false;
  /** Set while this instance grades the episode (the run's check leaves it alone). */
  private grading = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    noteObjectLoaded(ctx.id);
    this.store = new EpisodeStore(ctx.storage, { kv: ctx.storage.kv, launch: launchFromLegacy });
  }

  /**
   * Stores the launch and initializes the episode up to its first turn, which it asks for; launching a started
   * episode again is the run's check on it (see `checkOn`). Initializing here rather than in an alarm saves an
   * invocation and a storage commit per episode. Answers who checks on the episode from now on.
   */
  async start(launchText: string): Promise<EpisodeWatch> {
    if (this.store.get('phase') !== undefined) {
      await this.checkOn();
      return this.watch();
    }
    this.store.assumeEmpty();
    // The attempt is stored once it changes: reads default to 1.
    this.store.put('launch', launchText);
    this.store.put('phase', 'running');
    try {
      await this.initialize(await this.loadContext());
    } catch (error) {
      // The launch is stored: the alarm initializes it again (e.g. once the domain data can be read).
      console.warn(`episode start deferred: ${error instanceof Error ? error.message : String(error)}`);
      await this.armAlarm(Date.now());
    }
    return this.watch();
  }

  /**
   * An episode with an external participant watches itself: its alarm is always armed while it runs (see
   * `schedule`). One of built-in participants leaves it to its run, whose one alarm checks them all.
   */
  private async watch(): Promise<EpisodeWatch> {
    const context = await this.loadContext().catch(() => null);
    return context !== null && this.externalRole(context) !== null ? 'self' : 'run';
  }

  /** Stops the episode unless it already finished; returns whether it was stopped. */
  async cancel(): Promise<boolean> {
    const phase = this.phase();
    if (phase !== 'running') return phase === 'cancelled';
    this.store.put('phase', 'cancelled');
    await this.ctx.storage.deleteAlarm();
    this.alarmAt = null;
    return true;
  }

  /** Forgets everything, so the episode can be launched afresh (re-running an infrastructure error). */
  async reset(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    this.alarmAt = null;
    this.wipe();
  }

  snapshot(): EpisodeSnapshot {
    const fields = this.store.cursorFields();
    return {
      phase: this.phase() ?? null,
      attempt: this.phase() === undefined ? 0 : (this.store.get<number>('attempt') ?? 1),
      stepCount: fields?.step_count ?? null,
      done: fields?.done ?? null,
    };
  }

  /** The participant turn the episode waits for, or null (not started, tool calls or evaluation, ended). */
  async pendingTurn(): Promise<PendingTurn | null> {
    if (this.phase() !== 'running') return null;
    const context = await this.loadContext();
    const turn = this.describePending(context, this.loadLive(context));
    return turn === null ? null : asPendingTurn(turn);
  }

  /**
   * Applies the result of turn `step` exactly once. A repeat of an applied result gets the stored outcome; a
   * different result for an answered step, a step not waited for, or an episode no longer running is refused.
   * With `produceNext`, the caller produces the next turn itself: it gets that turn back (`pending`) instead of
   * the turn being sent to the queue (the run's check still covers it).
   */
  async submitTurn(step: number, result: TurnResult, options: { produceNext?: boolean } = {}): Promise<TurnOutcome & { pending?: PendingTurn }> {
    const { pending, ...outcome } = await this.applyResult(step, result, options.produceNext === true);
    return pending === undefined ? outcome : { ...outcome, pending: asPendingTurn(pending) };
  }

  /** submitTurn for any producer, one submission at a time; the next turn, when handed over, has its request as values. */
  private applyResult(step: number, result: TurnResult, produceNext: boolean): Promise<TurnOutcome & { pending?: LocalTurn }> {
    return this.oneAtATime(() => this.submitTurnNow(step, result, produceNext));
  }

  private async submitTurnNow(step: number, result: TurnResult, produceNext: boolean): Promise<TurnOutcome & { pending?: LocalTurn }> {
    // A finished episode keeps nothing but its phase.
    if (this.phase() === 'finished' || this.phase() === undefined) return this.refused('not_running');
    const context = await this.loadContext();
    const resultText = JSON.stringify(result);
    const pendingStep = this.store.nextStep();
    // Every step below the pending one has its answer recorded; the pending one and later ones have none.
    const recorded = step < pendingStep ? this.store.turn(step) : null;
    if (recorded) return recorded.result === resultText ? recorded.outcome : this.refused('conflict');
    if (!this.takesTurns()) return this.refused('not_running');
    const live = this.loadLive(context);
    // An external participant's turns come through submitExternalTurn only.
    if (!live || live.pending === null || step !== pendingStep || live.pending === this.externalRole(context)) return this.refused('not_pending');
    const next = await this.apply(context, live, step, result, resultText);
    return this.continueAfter(context, next, produceNext);
  }

  /**
   * Applies the external participant's turn `n` exactly once, like `submitTurn`: a repeat of an applied
   * message is answered as applied, another message for an applied turn is a conflict, a message the
   * participant may not send is refused as invalid and changes nothing. With `produceNext`, the built-in turn
   * that follows (the user's reply) comes back as `pending` for the caller to produce.
   */
  submitExternalTurn(n: number, message: TurnResponse, options: { produceNext?: boolean } = {}): Promise<ExternalTurnOutcome & { pending?: PendingTurn }> {
    return this.oneAtATime(() => this.submitExternalTurnNow(n, message, options));
  }

  private async submitExternalTurnNow(n: number, message: TurnResponse, options: { produceNext?: boolean }): Promise<ExternalTurnOutcome & { pending?: PendingTurn }> {
    const resultText = JSON.stringify(message);
    if (this.phase() === 'finished') return afterTheEnd(this.store.get<FinalTurn>('final_turn') ?? null, n, resultText);
    if (this.phase() === undefined) return { status: 'refused', reason: 'not_running', pending_step: null };
    const context = await this.loadContext();
    const role = this.externalRole(context);
    if (role === null) return { status: 'refused', reason: 'not_external', pending_step: null };
    const live = this.phase() === 'running' ? this.loadLive(context) : null;
    if (this.handingOver || this.phase() === 'written' || live?.state.done) return afterTheEnd(this.finalTurn(), n, resultText);
    const count = this.store.externalTurnCount();
    const pendingStep = live?.pending === role ? count : null;
    if (n < count) {
      const recorded = this.store.turn(this.store.externalTurn(n)!.step);
      return recorded?.result === resultText ? { status: 'applied', step: n } : { status: 'refused', reason: 'conflict', pending_step: pendingStep };
    }
    if (!this.takesTurns()) return { status: 'refused', reason: 'not_running', pending_step: null };
    if (n !== count || live === null || live.pending !== role) return { status: 'refused', reason: 'not_pending', pending_step: pendingStep };
    try {
      acceptTurn(live, message, context.deps);
    } catch (error) {
      return { status: 'refused', reason: 'invalid', pending_step: count, message: error instanceof Error ? error.message : String(error) };
    }
    const step = this.store.nextStep();
    this.store.recordExternalTurn(n, step, live.state.trajectory.length);
    const next = await this.apply(context, live, step, message, resultText);
    const { pending } = await this.continueAfter(context, next, options.produceNext === true);
    if (pending !== undefined) return { status: 'applied', step: n, pending: asPendingTurn(pending) };
    // Its turn again at once (its tool results are in): what it sees now saves the caller a call.
    const view = live.pending === role ? await this.observe(n + 1) : null;
    return view === null ? { status: 'applied', step: n } : { status: 'applied', step: n, view };
  }

  /** What the external participant sees now (see ExternalObservation); null for an episode without one. */
  async observe(since = 0, withGiven = false): Promise<ExternalObservation | null> {
    const phase = this.phase() ?? null;
    if (phase !== 'running' && phase !== 'written') return null;
    const context = await this.loadContext();
    const live = this.loadLive(context);
    const role = this.externalRole(context);
    if (role === null || live === null) return null;
    const from = since === 0 ? 0 : (this.store.externalTurn(since - 1)?.idx ?? Number.MAX_SAFE_INTEGER) + 1;
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
      step: this.store.externalTurnCount(),
      waiting: live.pending === role,
      done: live.state.done,
      termination_reason: live.state.termination_reason,
      messages: JSON.stringify(participantObservation(role, seen)),
      failed_tool_calls: failedToolCalls(role, seen),
      given: withGiven ? given() : null,
    };
  }

  /** Stores the answer to turn `step` and its outcome; a failure to apply it is a failed attempt. */
  private async apply(context: EpisodeContext, live: LiveEpisode, step: number, result: TurnResult, resultText: string): Promise<TurnOutcome & { status: 'applied' }> {
    let next: TurnOutcome & { status: 'applied' };
    if (result.kind === 'error') {
      next = { status: 'applied', step, next: this.failAttempt(context, new Error(result.message), result.retryable === false), next_step: null };
    } else {
      try {
        this.store.save(await applyTurn(live, result, context.deps));
        next = { status: 'applied', step, next: live.pending === null ? 'finishing' : 'turn', next_step: live.pending === null ? null : step + 1 };
      } catch (error) {
        next = { status: 'applied', step, next: this.failAttempt(context, error), next_step: null };
      }
    }
    this.store.recordTurn(step, resultText, next);
    return next;
  }

  /** Asks for what follows an applied turn; with `produceNext`, hands a built-in next turn to the caller. */
  private async continueAfter(
    context: EpisodeContext,
    next: TurnOutcome & { status: 'applied' },
    produceNext: boolean,
  ): Promise<TurnOutcome & { pending?: LocalTurn }> {
    // Only a built-in turn is handed over (an external one is its client's), and only then is its request built.
    const live = this.live;
    if (next.next === 'finishing' && live?.state.done && this.externalRole(context) === null && !isJudged(live.state)) {
      // Graded right after this answer when no judge is called (nothing to wait for): an alarm less per
      // episode. The answer goes first, as the object is reset once the run knows. Should grading fail, an
      // alarm grades again; should it be cut short, the run's check does.
      this.ctx.waitUntil(
        this.evaluate(context, live.state).catch(async (error: unknown) => {
          console.warn(`episode ${context.key} evaluation deferred: ${error instanceof Error ? error.message : String(error)}`);
          await this.armAlarm(Date.now());
        }),
      );
      return next;
    }
    const handOver = produceNext && next.next === 'turn' && live != null && live.pending !== null && live.pending !== this.externalRole(context);
    await this.schedule(!handOver);
    return handOver ? { ...next, pending: this.describePending(context, live)! } : next;
  }

  override async alarm(): Promise<void> {
    this.alarmAt = null;
    const phase = this.phase();
    if (phase === 'written') return this.notifyRun(await this.loadContext());
    if (phase !== 'running') return;
    const context = await this.loadContext();
    const failure = this.store.get<string>('failure');
    if (failure !== undefined) return this.finish(context, this.infrastructureError(context, new Error(failure)));
    const live = this.loadLive(context);
    if (live === null) return this.initialize(context);
    if (live.state.done) return this.evaluate(context, live.state);
    if (live.pending === this.externalRole(context)) {
      // An external turn is not asked for again: it is waited for until the idle limit, then the episode ends.
      const expires = (this.store.get<number>('asked_at') ?? Date.now()) + this.externalTurnTtlMs();
      if (Date.now() < expires) return this.armAlarm(expires);
      this.store.save(expireTurn(live));
      return this.evaluate(context, live.state);
    }
    // A built-in turn's watchdog (an episode that watches itself, or an alarm armed by an earlier version of
    // this object): a turn asked for recently still has its time; one not answered in time is asked for again.
    if (this.askedRecently()) return this.externalRole(context) === null ? undefined : this.armAlarm(this.askedAt! + TURN_WATCHDOG_MS);
    return this.schedule();
  }

  /**
   * The run's periodic check on a started episode: a built-in turn asked for longer than TURN_WATCHDOG_MS ago
   * and not answered (its message or its producer lost, e.g. in a crash) is asked for again, and an episode done
   * but not graded (grading cut short) is graded. An episode with an alarm armed is left to it: the alarm
   * retries a failed attempt, grades, or expires an external turn.
   */
  private async checkOn(): Promise<void> {
    if (!this.takesTurns() || this.grading || (await this.ctx.storage.getAlarm()) !== null) return;
    const context = await this.loadContext();
    const live = this.loadLive(context);
    if (live?.state.done) return this.evaluate(context, live.state);
    // A turn asked for recently still has its time; an external turn is its client's, within its idle limit.
    if (live?.pending != null && (live.pending === this.externalRole(context) || this.askedRecently())) return;
    return this.schedule();
  }

  /** Whether the built-in turn waited for was asked for less than TURN_WATCHDOG_MS ago (it still has its time). */
  private askedRecently(): boolean {
    return this.askedAt !== null && Date.now() < this.askedAt + TURN_WATCHDOG_MS;
  }

  /** Starts the current attempt's episode up to its first turn and asks for it. */
  private async initialize(context: EpisodeContext): Promise<void> {
    try {
      this.live = await startEpisode({ ...context.spec, simulationId: crypto.randomUUID() }, context.deps);
      this.store.save(this.live);
    } catch (error) {
      this.failAttempt(context, error);
    }
    return this.schedule();
  }

  /** The turn waited for, as a producer needs it. */
  private describePending(context: EpisodeContext, live: LiveEpisode | null): LocalTurn | null {
    if (!live || live.pending === null) return null;
    return {
      episode: context.key,
      run_id: context.launch.run_id,
      tenant: context.launch.tenant,
      task_id: context.launch.task_id,
      trial: context.launch.trial,
      step: this.store.nextStep(),
      role: live.pending,
      external: live.pending === this.externalRole(context),
      agent_endpoint: live.pending === 'agent' ? (context.launch.config.agent_endpoint?.url ?? null) : null,
      ...turnCall(live, context.deps),
    };
  }

  /**
   * Asks for what the episode waits for: its next turn (sent to the queue unless `send` is false; the run's
   * check asks again should no answer come) or, when done, its evaluation.
   */
  private async schedule(send = true): Promise<void> {
    if (this.phase() !== 'running') return;
    const live = this.live;
    if (this.store.get('failure') !== undefined || live?.state.done) return this.armAlarm(Date.now());
    if (!live) return this.armAlarm(this.store.get<number>('retry_at') ?? Date.now());
    if (live.pending === null) return;
    const context = await this.loadContext();
    const external = this.externalRole(context);
    if (live.pending === external) {
      // Nobody here produces it: the client steps the episode, within the idle limit.
      const askedAt = Date.now();
      this.store.put('asked_at', askedAt);
      return this.armAlarm(askedAt + this.externalTurnTtlMs());
    }
    this.askedAt = Date.now();
    // An episode that watches itself arms the built-in turn's watchdog (the run's check covers the others).
    if (external !== null) await this.armAlarm(this.askedAt + TURN_WATCHDOG_MS);
    if (send) await this.sendTurn(context);
  }

  /**
   * Hands the built-in turn waited for to a producer: this object itself when it runs no production yet and a
   * slot of the provider's cap is free at once (no queue message, consumer invocation or RPC per turn), else
   * the queue. The run's check covers both.
   */
  private async sendTurn(context: EpisodeContext): Promise<void> {
    const turn = this.producing === null ? this.describePending(context, this.live ?? null) : null;
    if (turn !== null) {
      const here = { submitTurn: (step: number, result: TurnResult, options: { produceNext?: boolean }) => this.applyResult(step, result, options.produceNext === true) };
      const started = produceTurnsIfFree(this.env, here, turn, Date.now() + CONTINUE_MS);
      const production: Promise<void> = started
        .then((run) => run?.done)
        .catch((error: unknown) => console.warn(`turn ${context.key}#${turn.step} not produced here: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          if (this.producing === production) this.producing = null;
        });
      this.producing = production;
      this.ctx.waitUntil(production);
      if ((await started.catch(() => null)) !== null) return;
    }
    await this.env.TURNS.send({ episode: context.key, step: this.store.nextStep() });
  }

  private async evaluate(context: EpisodeContext, state: EpisodeState): Promise<void> {
    this.grading = true;
    try {
      await this.grade(context, state);
    } finally {
      this.grading = false;
    }
  }

  private async grade(context: EpisodeContext, state: EpisodeState): Promise<void> {
    const gate = isJudged(state) ? providerGate(this.env, (await providerFor(this.env, context.launch.tenant)).endpoint) : null;
    const holder = `${context.key}#evaluation`;
    if (gate !== null && !(await gate.stub.acquire(holder, gate.cap))) {
      await this.armAlarm(Date.now() + jitterBackoff(1, GATE_WAIT_MS));
      return;
    }
    let simulation: SimulationRun;
    try {
      simulation = await completeEpisode(state, context.deps);
    } catch (error) {
      this.failAttempt(context, error);
      return this.schedule();
    } finally {
      if (gate !== null) await gate.stub.release(holder);
    }
    // A cancel may have arrived while the judge was answering.
    if (this.phase() !== 'running') return;
    await this.finish(context, simulation);
  }

  /**
   * The reference's whole-simulation retry: the attempt's episode is dropped and started over with the same
   * seed after `retry_delay`, or, with no retry left or a provider's refusal, the episode ends as an
   * infrastructure error.
   */
  private failAttempt(context: EpisodeContext, error: unknown, refused = isRefusal(error)): 'turn' | 'finishing' {
    const attempt = this.store.get<number>('attempt') ?? 1;
    const message = error instanceof Error ? error.message : String(error);
    console.warn(`episode ${context.key} attempt ${attempt} failed: ${message}`);
    this.store.clearEpisode();
    this.live = null;
    // An external participant would see its conversation start over: its episode is not retried.
    if (!refused && attempt <= context.launch.config.max_retries && this.externalRole(context) === null) {
      this.store.put('attempt', attempt + 1);
      this.store.put('retry_at', Date.now() + context.launch.config.retry_delay * 1000);
      return 'turn';
    }
    this.store.put('failure', message);
    return 'finishing';
  }

  private infrastructureError(context: EpisodeContext, error: Error): SimulationRun {
    return infrastructureErrorRun(context.spec, crypto.randomUUID(), Date.now(), error, this.store.get<number>('attempt') ?? 1);
  }

  /** Hands the simulation to the run, which stores it and writes it to D1 with others. */
  private async finish(context: EpisodeContext, simulation: SimulationRun): Promise<void> {
    this.handingOver = true;
    const rows = simulationRows(context.launch.run_id, simulation, new Date().toISOString());
    await this.notifyRun(context, JSON.stringify(rows));
  }

  /** Tells the run the episode finished (with its simulation's rows, unless an earlier version wrote them to D1: phase `written`). */
  private async notifyRun(context: EpisodeContext, rowsText?: string): Promise<void> {
    await this.env.RUN.getByName(context.launch.run_id).episodeFinished(context.key, rowsText);
    // A production here ends once the last turn is applied; its lease is released before the reset below.
    await this.producing;
    // An alarm still armed (e.g. an external turn's idle expiry) has nothing left to do.
    if (this.alarmAt !== null) {
      await this.ctx.storage.deleteAlarm();
      this.alarmAt = null;
    }
    // The simulation is safely in the run's keeping: the object keeps only its phase (so a repeated start
    // changes nothing) and, with an external participant, its final turn (a repeat of it is answered again);
    // it drops its rows and caches, so finished episodes hold next to nothing.
    const finalTurn = this.externalRole(context) === null ? null : this.finalTurn();
    this.wipe();
    this.store.put('phase', 'finished');
    if (finalTurn !== null) this.store.put('final_turn', finalTurn);
    // Once that is stored, the instance is reset rather than left to its idle eviction: a run keeps starting
    // episodes, and finished ones waiting to be evicted would otherwise hold most of the runtime's memory.
    await this.ctx.storage.sync();
    setTimeout(() => this.ctx.abort('episode finished'), 0);
  }

  /** The external participant's last applied turn and its message, or null (none, or no external participant). */
  private finalTurn(): FinalTurn | null {
    const count = this.store.externalTurnCount();
    const turn = count === 0 ? null : this.store.externalTurn(count - 1);
    const recorded = turn === null ? null : this.store.turn(turn.step);
    return recorded === null ? null : { n: count - 1, result: recorded.result };
  }

  private wipe(): void {
    this.store.clear();
    this.context = null;
    this.live = undefined;
  }

  /** The role a client outside the run plays (its turns are never produced here), or null. */
  private externalRole(context: EpisodeContext): TurnRole | null {
    const { config } = context.launch;
    return isExternalAgent(config.agent) ? 'agent' : config.user === 'external_user' ? 'user' : null;
  }

  private externalTurnTtlMs(): number {
    return limits(this.env).LIMIT_EXTERNAL_TURN_TTL_SECONDS * 1000;
  }

  private async armAlarm(at: number): Promise<void> {
    this.alarmAt = at;
    await this.ctx.storage.setAlarm(at);
  }

  private refused(reason: 'not_pending' | 'conflict' | 'not_running'): TurnOutcome {
    const pending = this.phase() === 'running' && this.live?.pending ? this.store.nextStep() : null;
    return { status: 'refused', reason, pending_step: pending };
  }

  /** Whether a turn may still be applied: running, and its simulation not yet on its way to the run. */
  private takesTurns(): boolean {
    return this.phase() === 'running' && !this.handingOver;
  }

  private phase(): EpisodePhase | undefined {
    return this.store.get<EpisodePhase>('phase');
  }

  /** The launch decoded, the engine's spec and dependencies built: once per instance. */
  private loadContext(): Promise<EpisodeContext> {
    this.context ??= (async () => {
      const launch = decodeLaunch(this.store.get<string>('launch')!);
      const deps = await episodeDeps(this.env, launch.config, launch.tenant);
      return { launch, key: episodeKey(launch.run_id, launch), spec: episodeSpec(launch, deps.data), deps };
    })();
    this.context.catch(() => (this.context = null));
    return this.context;
  }

  private loadLive(context: EpisodeContext): LiveEpisode | null {
    if (this.live === undefined) {
      const { domain, data } = context.deps;
      this.live = this.store.load(context.spec.task, domain, data, envOptions(context.spec, context.deps));
    }
    return this.live;
  }
}
