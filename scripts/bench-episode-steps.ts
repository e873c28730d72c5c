// CPU per step of the Episode object's state machine on a 40-turn airline-sized conversation: applying a turn
// and persisting it (what `submitTurn` does), and building the next turn's request, as values (what the
// object's own producer gets) and as the text a queued turn carries (what `pendingTurn` adds), at the first turn
// and at the 40th. The object's storage is a SQLite database in memory (node:sqlite) with
// the same statements as in workerd. Turns are scripted: the agent looks the user and their reservations up,
// answers, and the user asks again.
import { DatabaseSync } from 'node:sqlite';
import type { LoadedDomain } from '../src/cli/data.ts';
import type { EpisodeDeps } from '../src/core/orchestrator/deps.ts';
import { EpisodeStore } from '../src/worker/episode/store.ts';
import type { EpisodeStorage } from '../src/worker/episode/store.ts';
import { applyTurn, requestText, startEpisode, turnCall } from '../src/core/episode/machine.ts';
import type { TurnResponse } from '../src/core/episode/turn.ts';
import { median } from './bench-quantile.ts';

type Binding = string | number | null;

/** Durable Object SQL storage over a node:sqlite database. */
export const sqliteStorage = (): EpisodeStorage => {
  const db = new DatabaseSync(':memory:');
  const exec = <T>(query: string, ...bindings: Binding[]) => {
    // A statement list without bindings (creating or emptying the tables) runs as a whole and answers with
    // the rows of its last statement, as in workerd.
    const list = query.trim().replace(/;$/, '');
    if (bindings.length === 0 && list.includes(';')) {
      const split = list.lastIndexOf(';') + 1;
      db.exec(list.slice(0, split));
      return exec<T>(list.slice(split));
    }
    const statement = db.prepare(query);
    const rows = (/^\s*select/i.test(query) ? statement.all(...bindings) : (statement.run(...bindings), [])) as T[];
    return Object.assign(rows, { toArray: () => rows });
  };
  return { sql: { exec } as EpisodeStorage['sql'] };
};

const TURNS = 40;
const EPISODES = 9;

/** Milliseconds `run` takes; nothing it awaits does I/O, so this is CPU time. */
const cpuMs = async (run: () => unknown): Promise<number> => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};


/** The scripted answer to the turn waited for: the agent alternates lookups and answers, the user asks again. */
const scriptedAnswer = (role: 'agent' | 'user', turn: number, lastRole: string, userId: string, reservations: readonly string[]): TurnResponse => {
  const response = (content: string | null, calls: TurnResponse['tool_calls'] = []): TurnResponse => ({
    kind: 'response', content, tool_calls: calls, cost: 0.001, usage: { completion_tokens: 40, prompt_tokens: 2000 }, raw_data: null,
  });
  if (role === 'user') return response(`Could you check my reservations once more? (${turn})`);
  if (lastRole === 'tool') return response('Here is what I found on your profile and reservations.');
  const reservation = reservations[turn % Math.max(1, reservations.length)];
  const call = reservation && turn % 2 === 0
    ? { id: `call_${turn}`, name: 'get_reservation_details', arguments: JSON.stringify({ reservation_id: reservation }) }
    : { id: `call_${turn}`, name: 'get_user_details', arguments: JSON.stringify({ user_id: userId }) };
  return response(null, [call]);
};

export const benchEpisodeSteps = async (loaded: LoadedDomain): Promise<string> => {
  const task = loaded.data.tasks[0]!;
  const users = (loaded.data.db as { users: Record<string, { reservations: string[] }> }).users;
  const [userId, user] = Object.entries(users)[0]!;
  let clockMs = Date.UTC(2026, 0, 1);
  const model = { client: { generate: () => Promise.reject(new Error('turns are scripted')) }, model: 'bench', llmArgs: {} };
  const deps: EpisodeDeps = {
    ...loaded, agentModel: model, userModel: model, clock: { nowMs: () => (clockMs += 1) },
  };
  const apply: number[][] = Array.from({ length: TURNS }, () => []);
  const request: number[][] = Array.from({ length: TURNS }, () => []);
  const text: number[][] = Array.from({ length: TURNS }, () => []);
  for (let e = 0; e < EPISODES; e++) {
    const store = new EpisodeStore(sqliteStorage());
    const live = await startEpisode({ simulationId: `bench-${e}`, task, agent: 'llm_agent', trial: 0, seed: 300, maxSteps: 1000 }, deps);
    store.save(live);
    for (let turn = 0; turn < TURNS && live.pending !== null; turn++) {
      let call: ReturnType<typeof turnCall> | undefined;
      request[turn]!.push(await cpuMs(() => (call = turnCall(live, deps))));
      text[turn]!.push(await cpuMs(() => requestText(call!.request)));
      const answer = scriptedAnswer(live.pending, turn, live.state.trajectory.at(-1)!.role, userId, user.reservations);
      apply[turn]!.push(await cpuMs(async () => store.save(await applyTurn(live, answer, deps))));
    }
  }
  const at = (samples: number[][], turn: number) => median(samples[turn - 1]!).toFixed(2);
  return (
    `episode object CPU per step (40-turn airline conversation, median of ${EPISODES}): ` +
    `apply + persist ${at(apply, 1)} ms at turn 1, ${at(apply, TURNS)} ms at turn ${TURNS} | ` +
    `next request ${at(request, 1)} ms at turn 1, ${at(request, TURNS)} ms at turn ${TURNS}, ` +
    `as a queued turn's text ${at(text, 1)} ms more at turn 1, ${at(text, TURNS)} ms at turn ${TURNS}`
  );
};
