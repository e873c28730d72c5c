// `tau2-edge view FILE --web`: the web viewer over local results files (either implementation's, json or dir
// format), served on 127.0.0.1 by Node until interrupted; the same pages as the Worker's, read only.
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { addViewerPages, viewerShell } from '../viewer/app.ts';
import { VIEWER_PATHS } from '../viewer/app.ts';
import { resultsSource } from '../viewer/results-source.ts';
import type { LoadedResults } from '../viewer/results-source.ts';
import { loadResults } from './results-file.ts';

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

export const startWebView = async (targets: readonly string[], port = 0): Promise<WebView> => {
  const names = fileNames(targets);
  const files: LoadedResults[] = await Promise.all(targets.map(async (target, i) => ({ name: names[i]!, results: await loadResults(target) })));
  const source = resultsSource(files);
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
