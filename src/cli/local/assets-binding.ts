// How the local runtime serves the Worker's [assets] (the reference data, read only through env.ASSETS).
// Miniflare's assets support builds a manifest of the whole directory on every start (a stat and two SHA-256
// digests for each of data/tau2's 800-odd files, 0.1–0.2 s of CPU before workerd can start) and puts a router,
// an asset Worker and a proxy Worker in front of this one. With run_worker_first = true and a binding, no
// caller ever reaches the assets; the Worker only reads files through the binding. So the binding is served by
// workerd's read-only disk service over the same directory instead: a file's path gives its bytes, a missing
// file 404, as the assets binding does, with no scan at start. (The platform's per-file size and file-count
// limits are checked when wrangler deploys, as before; data/tau2 holds no dotfiles and no .assetsignore.)
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { WorkerOptions } from './bundle.ts';

/** What decides how the assets are served, as wrangler's options give it (Miniflare's assets options). */
const AssetsSchema = z.object({ directory: z.string(), binding: z.string().optional(), run_worker_first: z.union([z.boolean(), z.array(z.string())]).optional() });

/** The Worker's options with its assets bound as a read-only disk service when only the Worker reads them. */
export const assetsAsDiskBinding = (options: WorkerOptions): WorkerOptions => {
  const { assets: given, ...rest } = options;
  const assets = given === undefined ? undefined : AssetsSchema.parse(given);
  // Assets callers may reach (no run_worker_first, or only some routes first) need Miniflare's router; a missing
  // directory is served as an empty one only by Miniflare's assets.
  if (assets?.binding === undefined || assets.run_worker_first !== true || !existsSync(assets.directory)) return options;
  const bindings = z.record(z.string(), z.unknown()).optional().parse(rest.serviceBindings);
  return { ...rest, serviceBindings: { ...bindings, [assets.binding]: { disk: { path: assets.directory, writable: false } } } };
};
