// GET /v1/runs/:id/events: Server-Sent Events, one `simulation` event per finished simulation (its id is
// the completion sequence, so Last-Event-ID resumes) and one `status` event per status change. D1 is
// polled, so any isolate can serve the stream; it ends after the status event of a finished run. A comment
// line every SSE_HEARTBEAT_MS keeps proxies from closing a quiet stream and finds a departed client (the write
// fails), so its poll loop stops instead of living on. As often, the caller's key is checked again: the stream of
// a revoked key ends.
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { stillAuthenticated } from './auth.ts';
import { streamSSE } from 'hono/streaming';
import { RUN_EVENT } from '../../api/index.ts';
import type { RunStatusEvent, SimulationEvent } from '../../api/index.ts';
import { findRun } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { simulationSummaries } from '../db/simulations.ts';
import { runCounts, tallyFinished } from '../runs/read.ts';

export const POLL_MS = 500;
const DEFAULT_HEARTBEAT_MS = 15_000;

const heartbeatMs = (env: Env): number => {
  const value = Number((env as { SSE_HEARTBEAT_MS?: string }).SSE_HEARTBEAT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_HEARTBEAT_MS;
};

export const runEvents = (c: Context<AppEnv>, initial: RunRow): Response =>
  streamSSE(c, async (stream) => {
    const env = c.env;
    let lastSeq = Number.parseInt(c.req.header('last-event-id') ?? '0', 10) || 0;
    let lastStatus: string | null = null;
    // Counts come from a tally of the simulations seen so far, so each poll reads only the new ones.
    const finished = tallyFinished(lastSeq > 0 ? await simulationSummaries(env.DB, initial.id, 0, lastSeq) : []);
    const heartbeat = heartbeatMs(env);
    let lastWrite = Date.now();
    let lastCheck = Date.now();
    c.req.raw.signal.addEventListener('abort', () => stream.abort());
    while (!stream.aborted) {
      // The status is read before the simulations: a finished run's simulations are all written by then.
      const row = (await findRun(env.DB, initial.id)) ?? initial;
      const fresh = await simulationSummaries(env.DB, row.id, lastSeq);
      tallyFinished(fresh, finished);
      const counts = fresh.length > 0 || row.status !== lastStatus ? await runCounts(env, row, finished) : null;
      for (const s of fresh) {
        const event: SimulationEvent = {
          run_id: row.id,
          simulation_id: s.id,
          task_id: s.taskId,
          trial: s.trial,
          termination_reason: s.terminationReason as SimulationEvent['termination_reason'],
          reward: s.reward,
          agent_cost: s.agentCost,
          duration: s.duration,
          counts: counts!,
        };
        await stream.writeSSE({ event: RUN_EVENT.simulation, id: String(s.seq), data: JSON.stringify(event) });
        lastSeq = s.seq;
        lastWrite = Date.now();
      }
      if (row.status !== lastStatus) {
        const event: RunStatusEvent = { run_id: row.id, status: row.status, counts: counts! };
        await stream.writeSSE({ event: RUN_EVENT.status, data: JSON.stringify(event) });
        lastStatus = row.status;
        lastWrite = Date.now();
      }
      if (row.status !== 'running') return;
      if (Date.now() - lastCheck >= heartbeat) {
        if (!(await stillAuthenticated(c))) return;
        lastCheck = Date.now();
      }
      if (Date.now() - lastWrite >= heartbeat) {
        await stream.write(': heartbeat\n\n');
        lastWrite = Date.now();
      }
      await stream.sleep(POLL_MS);
    }
  });
