// Reference data for the Node CLI: read from the fetched data folder, parsed once per process.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataSource, DomainData, AnyDomain } from '../core/environment/domain.ts';
import { loadUserGuidelines } from '../core/user/user-simulator.ts';
import type { UserGuidelines } from '../core/user/user-simulator.ts';
import { getDomain } from '../../domains/registry.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `TAU2_EDGE_DATA_DIR` if set, else the folder `scripts/fetch-data.ts` fills. */
export const dataDir = (): string => process.env.TAU2_EDGE_DATA_DIR ?? path.join(repoRoot, 'data', 'tau2');

export const fileDataSource = (root: string = dataDir()): DataSource => ({
  async readText(file: string): Promise<string> {
    try {
      return await readFile(path.join(root, file), 'utf8');
    } catch (error) {
      throw new Error(`Reference data file ${file} is missing under ${root} (run: bash scripts/setup.sh)`, {
        cause: error,
      });
    }
  },
});

export interface LoadedDomain {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly guidelines: UserGuidelines;
}

const cache = new Map<string, Promise<LoadedDomain>>();

export const loadDomain = (name: string, source: DataSource = fileDataSource()): Promise<LoadedDomain> => {
  let loaded = cache.get(name);
  if (!loaded) {
    const domain = getDomain(name);
    loaded = Promise.all([domain.load(source), loadUserGuidelines(source)]).then(([data, guidelines]) => ({
      domain,
      data,
      guidelines,
    }));
    cache.set(name, loaded);
  }
  return loaded;
};
