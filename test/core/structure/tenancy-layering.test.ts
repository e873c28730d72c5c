// Tenancy answers values: its modules (tenants, quotas, limits, the budget, the spend ledger) import nothing from
// the HTTP layer or its framework, so the cron, the episode service and OpenEnv call them as readily as the API.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importGraph } from '../../support/import-cycles.ts';

const WORKER = path.resolve('src/worker');
const TENANCY = path.join(WORKER, 'tenancy');

describe('tenancy layering', () => {
  it('no tenancy module imports the HTTP layer (src/worker/api) or hono', () => {
    const graph = importGraph('src/worker');
    const modules = readdirSync(TENANCY).map((name) => path.join(TENANCY, name));
    expect(modules.length).toBeGreaterThan(0);
    const reachesApi = modules.flatMap((m) => (graph.get(m) ?? []).filter((t) => t.startsWith(path.join(WORKER, 'api') + path.sep)).map((t) => `${path.basename(m)} → ${path.relative(WORKER, t)}`));
    const usesHono = modules.filter((m) => /from\s+['"]hono/.test(readFileSync(m, 'utf8'))).map((m) => path.basename(m));
    expect([...reachesApi, ...usesHono]).toEqual([]);
  });
});
