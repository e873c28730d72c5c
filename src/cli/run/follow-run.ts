// Following a run to its end through its event stream: every finished simulation is reported once, and a
// dropped stream (a restarted worker, a network hiccup) is resumed from the last event id.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunStatus, SimulationEvent } from '../../api/index.ts';
import { ApiRequestError } from '../../client/index.ts';
import type { ApiClient } from '../../client/index.ts';

export interface FollowOptions {
  readonly onSimulation: (event: SimulationEvent) => void;
  /** Called when the stream drops and the follower starts reconnecting. */
  readonly onDisconnect?: (error: unknown) => void;
  /** How long to keep reconnecting before giving up. */
  readonly reconnectForMs?: number;
  readonly signal?: AbortSignal;
}

const FINISHED: ReadonlySet<RunStatus> = new Set(['completed', 'cancelled', 'failed']);

/** Resolves with the run's final status once the API reports it completed, cancelled or failed. */
export const followRun = async (client: ApiClient, runId: string, options: FollowOptions): Promise<RunStatus> => {
  const reconnectForMs = options.reconnectForMs ?? 120_000;
  let lastEventId: string | null = null;
  let failingSince: number | null = null;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      for await (const item of client.events(runId, { lastEventId, ...(options.signal ? { signal: options.signal } : {}) })) {
        failingSince = null;
        if (item.id !== null) lastEventId = item.id;
        if (item.kind === 'simulation') options.onSimulation(item.event);
        else if (FINISHED.has(item.event.status)) return item.event.status;
      }
      // The stream ended without a final status: ask for the run itself before listening again.
      const run = await client.run(runId);
      if (FINISHED.has(run.status)) return run.status;
      await sleep(250);
    } catch (error) {
      // The API's own refusals (unknown run, bad key) do not heal by waiting.
      if (options.signal?.aborted || (error instanceof ApiRequestError && error.status < 500)) throw error;
      failingSince ??= Date.now();
      if (Date.now() - failingSince > reconnectForMs) throw error;
      options.onDisconnect?.(error);
      await sleep(1_000);
    }
  }
};
