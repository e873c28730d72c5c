// Test projects, one per tier: `unit`, `e2e` and `ops` run in Node; the `worker` tier (projects `worker` and
// `worker-isolated`) in the Workers runtime against wrangler.toml.
import { readFile } from 'node:fs/promises';
import { enableCompileCache } from 'node:module';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Node's compile cache (the one scripts/env.sh sets, for a vitest started without it) for this process and, through
 * the environment, every Node process of the run: vitest's workers, local workers, the CLI, wrangler. A run starts
 * hundreds of them that load the same modules; each then reads their compiled code rather than compiling them again.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, 'node_modules', '.cache', 'tau2-edge', 'node-compile');
enableCompileCache(process.env.NODE_COMPILE_CACHE);

/** An import `with { type: 'text' }` is the file's text, as wrangler's bundler (esbuild) makes it; Vite ignores the attribute. */
const TEXT_IMPORT = /(from\s*['"])([^'"]+)(['"])\s*with\s*\{\s*type:\s*['"]text['"]\s*\}/g;
const TEXT_SUFFIX = '?text-import';
/**
 * In the worker pool, large text modules (Swagger UI's files, the Unicode name table) make workerd close the
 * pool's WebSocket with 1009 "Message is too large", and every later test file's runtime dies; there a file over
 * this size is a short stand-in naming it. The tests of a local Worker (the deploy bundle: test/browser, the CLI)
 * and the core project (the name table) read the real files.
 */
const POOL_TEXT_CHARS = 64 * 1024;
const textImports = ({ standInOver }: { standInOver?: number } = {}): Plugin => ({
  name: 'text-imports',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('.ts') || !code.includes('with {')) return null;
    const rewritten = code.replace(TEXT_IMPORT, (_, open: string, source: string, close: string) => `${open}${source}${TEXT_SUFFIX}${close}`);
    return rewritten === code ? null : { code: rewritten, map: null };
  },
  async resolveId(source, importer) {
    if (!source.endsWith(TEXT_SUFFIX)) return null;
    const resolved = await this.resolve(source.slice(0, -TEXT_SUFFIX.length), importer, { skipSelf: true });
    // A virtual id that no other plugin (e.g. Vite's CSS handling) claims by its extension.
    return resolved ? `\0text:${resolved.id}:text` : null;
  },
  async load(id) {
    const file = /^\0text:(.*):text$/.exec(id)?.[1];
    if (file === undefined) return null;
    const text = await readFile(file, 'utf8');
    const shown = standInOver !== undefined && text.length > standInOver ? `/* ${path.basename(file)}: ${text.length} characters, a stand-in in the worker test pool */` : text;
    return `export default ${JSON.stringify(shown)};`;
  },
});

/**
 * The tiers, run one after another within one vitest process (sequence.groupOrder); `npm test` runs them in lanes
 * side by side (scripts/test-lanes.ts). Each has the side-by-side files it can bear on two cores beside the other
 * lanes: `unit` is CPU-bound in-process code; `worker` runs in workerd; `e2e` starts local workers, the CLI, the
 * Python client and Chromium, whose files mostly wait on those processes; `ops` holds the operator scripts, one
 * file at a time (each starts local workers and load of its own; the limits figures it reads are CPU time).
 */
type TierSettings = NonNullable<TestProjectInlineConfiguration['test']>;
/** A tier that runs in Node, with the project's text imports, in its place in the order. */
const nodeTier = (name: string, groupOrder: number, settings: TierSettings): TestProjectInlineConfiguration => ({
  plugins: [textImports()],
  test: { name, environment: 'node', sequence: { groupOrder }, ...settings },
});
/** Tiers that start local workers: the bundle and database built once, and a state folder per test file. */
const localState = { globalSetup: ['test/support/state-dir.setup.ts', 'test/support/local-worker.setup.ts'], setupFiles: ['test/support/state-dir.ts'] };

/** A project of the `worker` tier: its files run in workerd against wrangler.toml. */
const workerTier = (name: string, settings: TierSettings): TestProjectInlineConfiguration => ({
  plugins: [
    textImports({ standInOver: POOL_TEXT_CHARS }),
    // The Worker's provider is the scripted fake started by the global setup; keys are test values.
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          OPENAI_BASE_URL: inject('fakeProviderBaseURL'),
          OPENAI_API_KEY: 'sk-test-provider-key',
          API_KEY: 'test-api-key',
          PROVIDER_MAX_CONCURRENCY: '4',
          // Tenants' provider keys are sealed with this; their endpoints may be the local fake provider.
          CREDENTIALS_KEY: 'dGVzdC1vbmx5LWNyZWRlbnRpYWxzLWtleS0zMmJ5dGU=',
          ALLOW_LOCAL_PROVIDERS: 'true',
          // A quiet event stream sends its heartbeat within the tests' patience.
          SSE_HEARTBEAT_MS: '200',
          // Long enough that no episode stepped by a test ends idle on a busy machine; a test that needs one
          // ended backdates its last ask (test/worker/support/episodes.ts).
          LIMIT_EXTERNAL_TURN_TTL_SECONDS: '60',
          // A step API request answers `not_ready` within the tests' patience.
          LIMIT_EPISODE_WAIT_SECONDS: '5',
          // OpenEnv sockets: bounds small enough for a test to reach (test/worker/openenv-bounds.test.ts).
          LIMIT_MAX_SOCKETS_PER_TENANT: '32',
          LIMIT_MAX_SOCKET_QUEUE: '8',
          LIMIT_MAX_SOCKET_QUEUE_BYTES: '65536',
          // The scripted remote agent (config.agent_endpoint) of the global setup.
          TEST_AGENT_ENDPOINT_URL: inject('agentEndpointURL'),
          // A second scripted provider, reached through a role's api_base (llm_args).
          TEST_ROLE_PROVIDER_URL: inject('roleProviderBaseURL'),
          // A server answering every call with a redirect to a trap that lists the calls it got (GET /__calls).
          TEST_REDIRECT_BOUNCER_URL: inject('redirectBouncerURL'),
          TEST_REDIRECT_TRAP_URL: inject('redirectTrapURL'),
          // The operator's Anthropic key and (scripted) API root, for `anthropic/…` models.
          ANTHROPIC_API_KEY: 'sk-ant-operator-test',
          ANTHROPIC_BASE_URL: inject('anthropicBaseURL'),
          // The operator's Gemini key and (scripted) API root, for `gemini/…` models.
          GEMINI_API_KEY: 'gm-operator-test',
          GOOGLE_GENERATIVE_AI_BASE_URL: inject('googleBaseURL'),
          // A scripted OpenAI Responses API, reached through a role's api_base.
          TEST_RESPONSES_URL: inject('responsesBaseURL'),
          TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, 'migrations')),
        },
      },
    })),
  ],
  test: {
    name,
    globalSetup: ['test/worker/support/fake-provider.setup.ts'],
    setupFiles: ['test/worker/support/apply-migrations.ts'],
    testTimeout: 60_000,
    maxWorkers: 2,
    sequence: { groupOrder: 2 },
    ...settings,
  },
});
/**
 * The `worker` files that need a runtime of their own: they reset every object in it, fire the cron trigger over
 * every tenant's schedules, or measure the provider cap's slots, all the runtime's, not the file's. (A runtime of
 * the shared project runs its files one after another: a file that lists every object, or counts a tenant's own
 * sockets, sees other files' leftovers but looks only for its own.)
 */
const ISOLATED_WORKER_FILES = [
  // abortAllDurableObjects resets every object of the runtime, other files' runs among them: the provider leases
  // of their calls in flight stay taken until they lapse (LEASE_TTL_MS), and the runs after wait for the cap.
  'test/worker/episode-do.test.ts',
  'test/worker/episode-waits.test.ts',
  'test/worker/episode-watch.test.ts',
  'test/worker/provider-gate.test.ts',
  'test/worker/run-recovery.test.ts',
  // The cron trigger launches every tenant's due schedules, other files' among them.
  'test/worker/agent-endpoint.test.ts',
  'test/worker/hardening.test.ts',
  'test/worker/quotas.test.ts',
  'test/worker/schedules.test.ts',
  'test/worker/tenants.test.ts',
  // The provider cap's slots (PROVIDER_MAX_CONCURRENCY) are the runtime's: other files' runs take them too.
  'test/worker/lifecycle.test.ts',
  'test/worker/long-episodes.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      nodeTier('unit', 1, {
        globalSetup: ['test/support/state-dir.setup.ts'],
        include: ['test/core/**/*.test.ts', 'test/domains/**/*.test.ts', 'test/viewer/**/*.test.ts'],
        // Whole-domain checks (every task through the orchestrator) take seconds, more on a busy CI machine and
        // with two files at once.
        testTimeout: 60_000,
        // Pure code: the files share two workers and the modules they load (e.g. a domain's parsed data)
        // rather than starting a process and loading them again for each file.
        isolate: false,
        maxWorkers: 2,
      }),
      // Starting workerd with the Worker's modules costs about 4 s of CPU: the files that bear it share a runtime
      // per worker (isolate: false); the others each start their own.
      workerTier('worker', { include: ['test/worker/**/*.test.ts'], exclude: ISOLATED_WORKER_FILES, isolate: false }),
      workerTier('worker-isolated', { include: ISOLATED_WORKER_FILES }),
      // Local workers (src/cli/local/worker.ts), the CLI, the Python client, and the web viewer in headless Chromium
      // (test/support/browser.ts). The files share three worker processes (isolate: false) rather than each loading
      // the CLI's and the test support's modules into a process of its own; each still has its own state folder
      // (state-dir.ts) and environment variables (file-env.ts).
      nodeTier('e2e', 3, {
        ...localState,
        setupFiles: [...localState.setupFiles, 'test/support/file-env.ts'],
        isolate: false,
        include: ['test/cli/**/*.test.ts', 'test/client/**/*.test.ts', 'test/browser/**/*.test.ts'],
        testTimeout: 60_000,
        hookTimeout: 180_000,
        maxWorkers: 3,
      }),
      nodeTier('ops', 4, { ...localState, include: ['test/scripts/**/*.test.ts'], testTimeout: 60_000, maxWorkers: 1 }),
    ],
  },
});
