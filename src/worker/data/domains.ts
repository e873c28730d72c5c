// Reference data in the Worker: read from the static assets (never bundled into code), parsed once per
// isolate on the domain's first use and shared read-only by every episode and request the isolate serves.
// Task sets are kept structurally shared (see shared-values.ts): an isolate has 128 MB for every domain it
// serves and all their live episodes.
import type { AnyDomain, DataSource, DomainData } from '../../core/environment/domain.ts';
import { loadUserGuidelines } from '../../core/user/user-simulator.ts';
import type { UserGuidelines } from '../../core/user/user-simulator.ts';
import { getDomain } from '../../../domains/registry.ts';
import { SharedValues } from './shared-values.ts';

export interface LoadedDomain {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly guidelines: UserGuidelines;
}

/** Files under the assets root (the fetched `data/tau2`), addressed by their data-relative path. */
export const assetsDataSource = (assets: Fetcher): DataSource => ({
  async readText(path: string): Promise<string> {
    const response = await assets.fetch(new URL(path, 'https://assets.invalid/'));
    if (!response.ok) throw new Error(`Reference data file ${path} is missing from the assets (run: npm run fetch-data)`);
    return response.text();
  },
});

const cache = new Map<string, Promise<LoadedDomain>>();
/** One table for every domain, so variants reading one task file (telecom, telecom-workflow) share its tasks. */
const sharedTasks = new SharedValues();

/** The domain with its data; throws for an unknown domain name. */
export const loadDomain = async (assets: Fetcher, name: string): Promise<LoadedDomain> => {
  let loaded = cache.get(name);
  if (!loaded) {
    const domain = getDomain(name);
    const source = assetsDataSource(assets);
    loaded = Promise.all([domain.load(source), loadUserGuidelines(source)]).then(([data, guidelines]) => ({
      domain,
      data: { ...data, tasks: sharedTasks.share(data.tasks) },
      guidelines,
    }));
    // A failed load (missing data) is not cached, so it is retried once the data is there.
    loaded.catch(() => cache.delete(name));
    cache.set(name, loaded);
  }
  return loaded;
};
