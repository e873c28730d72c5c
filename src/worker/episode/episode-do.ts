// One episode (task × trial) as a SQLite-backed Durable Object: it holds the authoritative episode state
// (orchestrator state and environment change set), takes one engine step per alarm and persists the state
// before scheduling the next, so an evicted or restarted object resumes where it stopped. At the end it
// evaluates, writes the simulation to D1 once and tells its run.
import { DurableObject } from 'cloudflare:workers';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { EpisodeStateSchema } from '../../core/schemas/episode.ts';
import type { EpisodeState } from '../../core/schemas/episode.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import type { DomainData } from '../../core/environment/domain.ts';
import { initializeEpisode } from '../../core/orchestrator/initialize.ts';
import { step } from '../../core/orchestrator/step.ts';
import { completeEpisode, infrastructureErrorRun } from '../../core/runner/simulation.ts';
import { jitterBackoff } from '../../core/llm/retry.ts';
import { decodeLaunch, episodeKey, episodeSpec } from './launch.ts';
import type { EpisodeLaunch } from './launch.ts';
import { episodeDeps } from './deps.ts';
import { providerGate } from '../runs/provider-gate.ts';
import { writeSimulation } from '../db/simulations.ts';

/** running → written (in D1) → finished (the run knows); or cancelled. */
export type EpisodePhase = 'running' | 'written' | 'finished' | 'cancelled';

/** Where an episode stands (plain values: an RPC result cannot carry PyFloats). */
export interface EpisodeSnapshot {
  readonly phase: EpisodePhase | null;
  readonly attempt: number;
  readonly stepCount: number | null;
  readonly done: boolean | null;
}

const GATE_WAIT_MS = 250;

export class EpisodeDO extends DurableObject<Env> {
  /** Stores the launch and schedules the first step; launching a started episode again changes nothing. */
  async start(launchText: string): Promise<void> {
    if ((await this.ctx.storage.get('launch')) !== undefined) return;
    await this.ctx.storage.put({ launch: launchText, phase: 'running', attempt: 1 });
    await this.ctx.storage.setAlarm(Date.now());
  }

  /** Stops the episode unless it already finished; returns whether it was stopped. */
  async cancel(): Promise<boolean> {
    const phase = await this.phase();
    if (phase !== 'running') return phase === 'cancelled';
    await this.ctx.storage.put('phase', 'cancelled');
    await this.ctx.storage.deleteAlarm();
    return true;
  }

  /** Forgets everything, so the episode can be launched afresh (re-running an infrastructure error). */
  async reset(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  async snapshot(): Promise<EpisodeSnapshot> {
    const state = await this.state();
    return {
      phase: (await this.phase()) ?? null,
      attempt: (await this.ctx.storage.get<number>('attempt')) ?? 0,
      stepCount: state?.step_count ?? null,
      done: state?.done ?? null,
    };
  }

  override async alarm(): Promise<void> {
    const phase = await this.phase();
    if (phase !== 'running' && phase !== 'written') return;
    const launch = decodeLaunch((await this.ctx.storage.get<string>('launch'))!);
    if (phase === 'written') return this.notifyRun(launch);

    const deps = await episodeDeps(this.env, launch.config);
    const state = await this.state();
    // Tool calls touch only the environment; every other transition (and evaluation) may call the provider.
    const callsProvider = state === null || state.done || state.to_role !== 'env';
    const gate = providerGate(this.env);
    const holder = this.ctx.id.toString();
    if (callsProvider && !(await gate.stub.acquire(holder, gate.cap))) {
      await this.ctx.storage.setAlarm(Date.now() + jitterBackoff(1, GATE_WAIT_MS));
      return;
    }
    let outcome: { next: EpisodeState } | { simulation: SimulationRun } | { error: unknown };
    try {
      const spec = episodeSpec(launch, deps.data);
      if (state === null) outcome = { next: await initializeEpisode({ ...spec, simulationId: crypto.randomUUID() }, deps) };
      else if (state.done) outcome = { simulation: await completeEpisode(state, deps) };
      else outcome = { next: await step(state, deps) };
    } catch (error) {
      outcome = { error };
    } finally {
      if (callsProvider) await gate.stub.release(holder);
    }
    // A cancel may have arrived while the provider was answering.
    if ((await this.phase()) !== 'running') return;
    if ('next' in outcome) {
      await this.ctx.storage.put('state', dumpsPy(outcome.next as unknown as PyInput));
      await this.ctx.storage.setAlarm(Date.now());
    } else if ('simulation' in outcome) {
      await this.finish(launch, outcome.simulation);
    } else {
      await this.failAttempt(launch, outcome.error, deps.data);
    }
  }

  /** The reference's whole-simulation retry: start over with the same seed, or record an infrastructure error. */
  private async failAttempt(launch: EpisodeLaunch, error: unknown, data: DomainData): Promise<void> {
    const attempt = (await this.ctx.storage.get<number>('attempt')) ?? 1;
    console.warn(`episode ${episodeKey(launch.run_id, launch)} attempt ${attempt} failed: ${error instanceof Error ? error.message : String(error)}`);
    if (attempt <= launch.config.max_retries) {
      await this.ctx.storage.delete('state');
      await this.ctx.storage.put('attempt', attempt + 1);
      await this.ctx.storage.setAlarm(Date.now() + launch.config.retry_delay * 1000);
      return;
    }
    const spec = episodeSpec(launch, data);
    await this.finish(launch, infrastructureErrorRun(spec, crypto.randomUUID(), Date.now(), error, attempt));
  }

  private async finish(launch: EpisodeLaunch, simulation: SimulationRun): Promise<void> {
    await writeSimulation(this.env.DB, launch.run_id, simulation);
    await this.ctx.storage.put('phase', 'written');
    await this.notifyRun(launch);
  }

  private async notifyRun(launch: EpisodeLaunch): Promise<void> {
    await this.env.RUN.getByName(launch.run_id).episodeFinished(episodeKey(launch.run_id, launch));
    await this.ctx.storage.put('phase', 'finished');
  }

  private phase(): Promise<EpisodePhase | undefined> {
    return this.ctx.storage.get<EpisodePhase>('phase');
  }

  private async state(): Promise<EpisodeState | null> {
    const text = await this.ctx.storage.get<string>('state');
    return text === undefined ? null : EpisodeStateSchema.parse(parsePyJson(text));
  }
}
