// The runtime's own cost, apart from tau2-edge's code: workerd CPU per Durable Object created and called once
// and reset (without storage, and with a first table and write), per call to a live object, and per `fetch` to a local
// server, as the Worker path pays them per episode. Measured in a workerd of its own (Miniflare), from its
// process's CPU time (in ticks of 10 ms, hence thousands of units a round); the median of three rounds.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import { defaultStateRoot, groupCpuSeconds } from '../test/support/load-harness.ts';
import { median } from './bench-quantile.ts';

const ROUNDS = 3;
const CONCURRENCY = 32;

const WORKER = `
import { DurableObject } from 'cloudflare:workers';
// Reset once called, as a finished episode is (call() on a live object keeps it).
export class Bare extends DurableObject {
  call(reset) {
    if (reset) setTimeout(() => this.ctx.abort('done'), 0);
  }
}
export class Stored extends DurableObject {
  async call() {
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO t (key, value) VALUES (?, ?)', 'k', 'v'.repeat(1000));
    await this.ctx.storage.sync();
    setTimeout(() => this.ctx.abort('done'), 0);
  }
}
const times = (n, work) => {
  let i = 0;
  return Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => { while (i < n) { i++; await work(i); } }));
};
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n'));
    const round = crypto.randomUUID();
    switch (url.searchParams.get('kind')) {
      case 'object': await times(n, (i) => env.BARE.getByName(round + i).call(true)); break;
      case 'stored': await times(n, (i) => env.STORED.getByName(round + i).call()); break;
      case 'call': { const live = env.BARE.getByName(round); await times(n, () => live.call(false)); break; }
      case 'fetch': await times(n, async () => (await fetch(url.searchParams.get('target'), { method: 'POST', body: '{"messages":[]}' })).arrayBuffer()); break;
    }
    return new Response('ok');
  },
};
`;

/** This process's group: the workerd Miniflare starts is in it. */
export const ownGroup = async (): Promise<number> => {
  const stat = await readFile('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
};

export const benchRuntime = async (): Promise<string[]> => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{"choices":[]}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const state = await mkdtemp(path.join(await defaultStateRoot(), 'tau2-edge-bench-runtime-'));
  const runtime = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: state,
      workers: [
        {
          name: 'bench-runtime',
          modules: true,
          script: WORKER,
          compatibilityDate: '2025-10-01',
          durableObjects: { BARE: { className: 'Bare', useSQLite: true }, STORED: { className: 'Stored', useSQLite: true } },
        },
      ],
    }),
  );
  try {
    const group = await ownGroup();
    const cpuMsPer = async (kind: string, units: number): Promise<number> => {
      const samples: number[] = [];
      // A first round warms the isolate up.
      for (let round = 0; round <= ROUNDS; round++) {
        const before = await groupCpuSeconds(group, 'workerd');
        const response = await runtime.dispatchFetch(`http://bench/?kind=${kind}&n=${units}&target=${encodeURIComponent(target)}`);
        if ((await response.text()) !== 'ok') throw new Error(`bench-runtime ${kind}: HTTP ${response.status}`);
        const after = await groupCpuSeconds(group, 'workerd');
        if (round > 0) samples.push(((after.user + after.system - before.user - before.system) * 1000) / units);
      }
      return median(samples);
    };
    const object = await cpuMsPer('object', 1_000);
    const stored = await cpuMsPer('stored', 1_000);
    const call = await cpuMsPer('call', 10_000);
    const fetched = await cpuMsPer('fetch', 2_000);
    return [
      `runtime CPU per unit (workerd, median of ${ROUNDS} rounds): object created, called once and reset ${object.toFixed(2)} ms, ` +
        `with a first table and write ${stored.toFixed(2)} ms; call to a live object ${call.toFixed(3)} ms; fetch to a local server ${fetched.toFixed(2)} ms`,
    ];
  } finally {
    await runtime.dispose();
    server.close();
    await rm(state, { recursive: true, force: true });
  }
};
