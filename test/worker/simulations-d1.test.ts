// Simulations written to D1 many at a time: every message row arrives exactly, a second write changes nothing,
// and no statement binds more than D1 takes (100 parameters, strings of at most 2 MB), however large the batch.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MESSAGE_JSON_CHARS, writeSimulations } from '../../src/worker/db/simulations.ts';
import type { SimulationRows } from '../../src/worker/db/simulations.ts';
import { chunksOfSize } from '../../src/worker/db/chunks.ts';

const D1_MAX_PARAMETERS = 100;
const D1_MAX_STRING = 2_000_000;

/** A member of `target`, its methods bound to it (so a proxy can stand in for it). */
const memberOf = (target: object, key: PropertyKey): unknown => {
  const value = Reflect.get(target, key) as unknown;
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
};

/** The D1 binding, with every statement's bound parameters noted. */
const recordingD1 = (bound: unknown[][]): D1Database =>
  new Proxy(env.DB, {
    get: (target, key) =>
      key !== 'prepare'
        ? memberOf(target, key)
        : (query: string) =>
            new Proxy(target.prepare(query), {
              get: (statement, member) =>
                member !== 'bind'
                  ? memberOf(statement, member)
                  : (...values: unknown[]) => {
                      bound.push(values);
                      return statement.bind(...values);
                    },
            }),
  });

/** A simulation's rows: `count` messages, the first with a body of `bodyChars` characters (quotes included, as JSON text has). */
const rowsOf = (runId: string, n: number, count: number, bodyChars: number): SimulationRows => ({
  simulation: {
    id: `${runId}-sim-${n}`,
    runId,
    taskId: `task-${n % 7}`,
    trial: n,
    terminationReason: 'user_stop',
    reward: n % 2,
    agentCost: 0.1 + n,
    duration: 1.25 * n,
    record: `{"id": "${runId}-sim-${n}"}`,
    createdAt: '2026-11-27T00:00:00.000Z',
  },
  messages: Array.from({ length: count }, (_, idx) => ({
    idx,
    role: idx % 2 === 0 ? 'assistant' : 'user',
    body: idx === 0 ? `{"content": "${'"\\'.repeat(bodyChars / 4)}é"}` : `{"content": "message ${idx} of ${n}"}`,
  })),
});

const stored = async (runId: string) => {
  const { results } = await env.DB.prepare(
    `SELECT m.simulation_id AS id, m.idx AS idx, m.role AS role, m.body AS body FROM messages m JOIN simulations s ON s.id = m.simulation_id
     WHERE s.run_id = ? ORDER BY s.trial, m.idx`,
  )
    .bind(runId)
    .all<{ id: string; idx: number; role: string; body: string }>();
  return results;
};

describe('writeSimulations', () => {
  it('writes a batch beyond D1 limits in statements within them, each message exactly once', async () => {
    const runId = 'd1-batch-run';
    // Bodies of a third of the JSON limit, escaped to twice that in JSON: several statements for the messages.
    const written = Array.from({ length: 40 }, (_, n) => rowsOf(runId, n, 1 + (n % 5), n % 5 === 0 ? MESSAGE_JSON_CHARS / 3 : 40));
    const bound: unknown[][] = [];
    await writeSimulations(recordingD1(bound), written);

    // 40 simulations in 4 statements, their messages in more than one.
    expect(bound.length).toBeGreaterThanOrEqual(4 + 2);
    for (const values of bound) {
      expect(values.length).toBeLessThanOrEqual(D1_MAX_PARAMETERS);
      for (const value of values) if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(D1_MAX_STRING);
    }
    const expected = written.flatMap(({ simulation, messages }) => messages.map((m) => ({ id: simulation.id, ...m })));
    expect(await stored(runId)).toEqual(expected);
    const { results: simulations } = await env.DB.prepare(`SELECT id, reward, agent_cost, duration, record FROM simulations WHERE run_id = ? ORDER BY trial`)
      .bind(runId)
      .all();
    expect(simulations).toEqual(
      written.map(({ simulation }) => ({ id: simulation.id, reward: simulation.reward, agent_cost: simulation.agentCost, duration: simulation.duration, record: simulation.record })),
    );

    // A second write of the same simulations (a replayed batch) changes nothing.
    await writeSimulations(env.DB, written.slice(0, 3));
    expect(await stored(runId)).toEqual(expected);
  });
});

describe('chunksOfSize', () => {
  it('groups consecutive items up to the size, an oversized item alone', () => {
    const sizes = [3, 4, 2, 9, 1, 1, 5];
    expect(chunksOfSize(sizes, (n) => n, 7)).toEqual([[3, 4], [2], [9], [1, 1, 5]]);
    expect(chunksOfSize([], (n: number) => n, 7)).toEqual([]);
  });
});
