// A redirecting endpoint on 127.0.0.1 for tests: every call to the bouncer answers a redirect (307 or 302, by
// the path's `/307/` or `/302/`) to a second server, the trap, which records each call it gets (method, path,
// headers) and lists them at GET /__calls. A client that follows no redirect never reaches the trap.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TrappedCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

export interface RedirectTrap {
  /** The bouncer's root; `${bouncerURL}/307/v1` redirects with 307, `/302/` with 302. */
  readonly bouncerURL: string;
  /** The trap's root: where every redirect points. */
  readonly trapURL: string;
  /** Calls the bouncer got. */
  readonly bounced: TrappedCall[];
  /** Calls the trap got. */
  readonly trapped: TrappedCall[];
  close(): Promise<void>;
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve, reject) => {
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });

export const startRedirectTrap = async (): Promise<RedirectTrap> => {
  const bounced: TrappedCall[] = [];
  const trapped: TrappedCall[] = [];
  const trap = createServer((req, res) => {
    req.resume();
    if (req.method === 'GET' && req.url === '/__calls') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(trapped));
      return;
    }
    trapped.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const trapURL = await listen(trap);
  const bouncer = createServer((req, res) => {
    req.resume();
    bounced.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const status = req.url?.startsWith('/302/') ? 302 : 307;
    res.writeHead(status, { location: `${trapURL}/caught${req.url ?? ''}` }).end();
  });
  const bouncerURL = await listen(bouncer);
  return {
    bouncerURL,
    trapURL,
    bounced,
    trapped,
    close: async () => {
      await closeServer(bouncer);
      await closeServer(trap);
    },
  };
};
