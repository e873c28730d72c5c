// Prints wrangler's translation of wrangler.toml into Miniflare's options for the Worker (as JSON: name, main
// module, bindings), for the local runtime. It runs as a short-lived process of its own: the wrangler module
// costs about 110 MB of memory that the runtime would otherwise keep for as long as it runs.
// Usage: node options.ts CONFIG_PATH
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';

const configPath = process.argv[2];
if (configPath === undefined) throw new Error('usage: options.ts CONFIG_PATH');
const config = unstable_readConfig({ config: configPath });
// Module rules only matter to bundling, which `wrangler deploy --dry-run` does: the bundle is one module.
const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions;
process.stdout.write(JSON.stringify({ name: config.name, main: config.main, workerOptions }));
