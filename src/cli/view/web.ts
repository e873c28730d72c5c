// `tau2-edge view FILE --web`: the web viewer over local results files (either implementation's, json or dir
// format), served on 127.0.0.1 by Node until interrupted; the same pages as the Worker's, read only.
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { addViewerPages, viewerShell } from '../../viewer/app.ts';
import { VIEWER_PATHS } from '../../viewer/app.ts';
import { resultsSource } from '../../viewer/results-source.ts';
import type { DbDiffOf, LoadedResults } from '../../viewer/results-source.ts';
import { ApiRequestError } from '../../client/index.ts';
import { simulationDbDiff } from '../../core/evaluator/db-diff.ts';
import { isSoloRun } from '../../core/evaluator/regrade.ts';
import { loadDomain } from '../data.ts';
import { loadResults } from '../results-file.ts';

export interface WebView {
  readonly url: string;
  close(): Promise<void>;
}

/** A name for each file, unique among them: the file name, or its folder's for a dir-format results.json. */
export const fileNames = (targets: readonly string[]): string[] => {
  const seen = new Map<string, number>();
  return targets.map((target) => {
    const base = path.basename(target) === 'results.json' ? path.basename(path.dirname(path.resolve(target))) : path.basename(target);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
};

/** From the tasks the results file embeds and the domain's fetched data, as `evaluate-trajs` re-grades. */
const dbDiffOfFile: DbDiffOf = async (results, simulation) => {
  const task = results.tasks.find((t) => t.id === simulation.task_id);
  if (!task) throw new ApiRequestError(404, 'not_found', `Task ${simulation.task_id} is not embedded in the results file`);
  const { domain, data } = await loadDomain(results.info.environment_info.domain_name);
  return simulationDbDiff(task, simulation, { domain, data, solo: isSoloRun(results) });
};

export const startWebView = async (targets: readonly string[], port = 0): Promise<WebView> => {
  const names = fileNames(targets);
  const files: LoadedResults[] = await Promise.all(targets.map(async (target, i) => ({ name: names[i]!, results: await loadResults(target) })));
  const source = resultsSource(files, dbDiffOfFile);
  const app = viewerShell();
  for (const route of VIEWER_PATHS) {
    app.use(route, async (c, next) => {
      c.set('viewer', { source, csrfToken: null, signedIn: false });
      await next();
    });
  }
  addViewerPages(app);
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, () => resolve(started));
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
