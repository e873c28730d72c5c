// Which methods a path is served with: a known path called with another method gets 405 and `Allow`,
// not the 404 of an unknown path.
import { TrieRouter } from 'hono/router/trie-router';

export interface RouteEntry {
  readonly method: string;
  readonly path: string;
}

/** A matcher over the app's routes (middleware, registered for every method, is left out). */
export const routeMethods = (routes: readonly RouteEntry[]): ((path: string) => string[]) => {
  const router = new TrieRouter<string>();
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL') continue;
    router.add(route.method, route.path, route.method);
    methods.add(route.method);
  }
  return (path) => [...methods].filter((method) => router.match(method, path)[0].length > 0);
};
