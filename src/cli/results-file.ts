// Results files in the reference's two storage formats (Results.save / Results.load): `json`, one file written
// as pydantic's model_dump_json(indent=2) (non-ASCII as raw UTF-8; numbers keep their Python kinds through
// dumpsPy), and `dir`, a results.json of metadata (json.dump(indent=2), so ASCII-escaped) with a
// simulation_index, and one <simulation id>.json per simulation in simulations/ beside it.
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dumpsPy, parsePyJson } from '../core/py/index.ts';
import type { PyValue } from '../core/py/index.ts';
import { ZodError, z } from 'zod';
import { ResultsSchema } from '../core/schemas/simulation.ts';
import { fillLoadedTimestamps } from '../core/schemas/loaded-timestamps.ts';
import { isoTimestamp } from '../core/orchestrator/clock.ts';
import type { Results } from '../core/schemas/simulation.ts';

export type ResultsFormat = 'json' | 'dir';

const SIMULATIONS_DIR = 'simulations';
/** Characters of why a file could not be read, at most, in the error. */
const MAX_REASON = 400;

export const resultsText = (results: Results): string => dumpsPy(results as unknown as PyValue, { indent: 2, ensureAscii: false });

const isDirectory = (p: string): Promise<boolean> => stat(p).then((s) => s.isDirectory(), () => false);

/** `dir` when the path is a folder or has a simulations/ folder beside it, else `json` (reference: _detect_format). */
export const resultsFormat = async (target: string): Promise<ResultsFormat> =>
  (await isDirectory(target)) || (await isDirectory(path.join(path.dirname(target), SIMULATIONS_DIR))) ? 'dir' : 'json';

/** The metadata file and the simulations folder of a `dir` results path (a folder, or its results.json). */
export const dirPaths = async (target: string): Promise<{ meta: string; simulations: string }> =>
  (await isDirectory(target))
    ? { meta: path.join(target, 'results.json'), simulations: path.join(target, SIMULATIONS_DIR) }
    : { meta: target, simulations: path.join(path.dirname(target), SIMULATIONS_DIR) };

/** Validates a loaded results document; timestamps it leaves out are `now`, as in the reference. */
const parseLoaded = (data: unknown, now: string): Results => {
  fillLoadedTimestamps(data, now);
  return ResultsSchema.parse(data);
};

/**
 * Reads results in either format, from a results file or a run's folder (its results.json, with simulations/
 * beside it in the `dir` format); a `dir` whose files disagree with its index is refused, as the reference does.
 * `now` stands in for absent timestamps (the load time by default). A file that cannot be read as results is
 * named in the error.
 */
export const loadResults = async (target: string, now: string = isoTimestamp(Date.now())): Promise<Results> => {
  // A run's folder in the `json` format: its results.json alone.
  const file = (await isDirectory(target)) && !(await isDirectory(path.join(target, SIMULATIONS_DIR))) ? path.join(target, 'results.json') : target;
  try {
    return await loadFrom(file, now);
  } catch (error) {
    const reason = (error instanceof ZodError ? z.prettifyError(error) : error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new Error(`${file} is not a readable results file: ${reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason}`, { cause: error });
  }
};

const loadFrom = async (target: string, now: string): Promise<Results> => {
  if ((await resultsFormat(target)) === 'json') return parseLoaded(parsePyJson(await readFile(target, 'utf8')), now);
  const { meta, simulations } = await dirPaths(target);
  const data = parsePyJson(await readFile(meta, 'utf8')) as Record<string, PyValue>;
  delete data['format_version'];
  const files = (await readdir(simulations).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  const index = data['simulation_index'] as { id: string }[] | null | undefined;
  if (index !== null && index !== undefined) {
    const indexed = new Set(index.map((e) => e.id));
    const onDisk = new Set(files.map((f) => f.slice(0, -'.json'.length)));
    const missing = [...indexed].filter((id) => !onDisk.has(id)).sort();
    const extra = [...onDisk].filter((id) => !indexed.has(id)).sort();
    const errors = [
      ...(missing.length > 0 ? [`Missing simulation files: ${missing.join(', ')}`] : []),
      ...(extra.length > 0 ? [`Extra simulation files not in index: ${extra.join(', ')}`] : []),
    ];
    if (errors.length > 0) throw new Error(`Dir format integrity check failed for ${meta}: ${errors.join('; ')}`);
  }
  data['simulations'] = await Promise.all(files.map(async (f) => parsePyJson(await readFile(path.join(simulations, f), 'utf8'))));
  return parseLoaded(data, now);
};

const simulationIndex = (results: Results): NonNullable<Results['simulation_index']> =>
  results.simulations.map((s) => ({
    id: s.id,
    task_id: s.task_id,
    // The reference's index entry requires a trial (its save fails without one).
    trial: s.trial ?? failIndex(`simulation ${s.id} has no trial`),
    reward: s.reward_info?.reward ?? null,
    termination_reason: s.termination_reason,
    agent_cost: s.agent_cost ?? null,
    duration: s.duration,
  }));

const failIndex = (why: string): never => {
  throw new Error(`The dir format indexes every simulation by trial: ${why}`);
};

/** Writes results in the given format (a `dir` path is a folder, or the results.json to put simulations/ beside). */
export const saveResults = async (target: string, results: Results, format: ResultsFormat = 'json'): Promise<void> => {
  if (format === 'json') {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, resultsText(results));
    return;
  }
  const { meta, simulations } = await dirPaths(target);
  await mkdir(simulations, { recursive: true });
  const { simulations: sims, ...rest } = { ...results, simulation_index: simulationIndex(results) };
  await writeFile(meta, dumpsPy(rest as unknown as PyValue, { indent: 2 }));
  for (const sim of sims) await writeFile(path.join(simulations, `${sim.id}.json`), dumpsPy(sim as unknown as PyValue, { indent: 2, ensureAscii: false }));
};
