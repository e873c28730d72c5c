// Benchmarks: memory held per live episode beyond the shared base DB, and p50 time of one DB verdict.
// Run with `npm run bench` (node --expose-gc). Figures are printed, not asserted.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { dictGet, dictKeys, parsePyJson, pyFloat } from '../src/core/py/index.ts';
import { dbEquals, diffFromBase, freezeBase, mutateDb } from '../src/core/environment/db-state.ts';
import { dataDir } from '../src/cli/data.ts';

type Table = Record<string, Record<string, unknown>> | Map<string, Record<string, unknown>>;
type Db = Record<string, Table>;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');

const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const p50 = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

/** A typical episode: a handful of writes on a few records, as a conversation's write tools make them. */
const episode = (base: Db, i: number): Db => {
  const tables = Object.keys(base);
  let db = base;
  for (let w = 0; w < 4; w++) {
    const table = tables[(i + w) % tables.length]!;
    // Tables keyed by index-like ids (retail products) are Maps.
    const keys = dictKeys(base[table]!);
    const key = keys[(i * 7919 + w * 104729) % keys.length]!;
    db = mutateDb(db, (draft) => {
      const record = dictGet(draft[table]!, key)!;
      record.status = `changed-${i}-${w}`;
      record.amount = pyFloat(i + w + 0.5);
    }).db;
  }
  return db;
};

const benchDomain = async (name: string, file: string): Promise<void> => {
  const text = await readFile(path.join(dataDir(), file), 'utf8');
  const before = heapUsed();
  const base = freezeBase(parsePyJson(text) as Db);
  const baseBytes = heapUsed() - before;

  const live: Db[] = [];
  const episodes = 200;
  const start = heapUsed();
  for (let i = 0; i < episodes; i++) live.push(episode(base, i));
  const perEpisode = (heapUsed() - start) / episodes;

  const verdictMs: number[] = [];
  for (let i = 0; i < 400; i++) {
    const gold = live[i % episodes]!;
    const predicted = episode(base, i % episodes);
    const t0 = performance.now();
    dbEquals(gold, predicted);
    verdictMs.push(performance.now() - t0);
  }
  const changes = diffFromBase(base, live[0]).length;
  console.log(
    `${name.padEnd(8)} base ${(baseBytes / 2 ** 20).toFixed(1)} MB parsed once | ` +
      `per live episode ${(perEpisode / 1024).toFixed(1)} KB beyond the base (${changes} changed paths) | ` +
      `DB verdict p50 ${p50(verdictMs).toFixed(3)} ms`,
  );
};

console.log('tau2-edge benchmarks (targets: < 1 MB per episode, <= 2 ms per verdict on retail)');
await benchDomain('mock', 'domains/mock/db.json');
await benchDomain('retail', 'domains/retail/db.json');
await benchDomain('airline', 'domains/airline/db.json');
