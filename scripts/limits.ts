// `npm run limits`: the Worker measured against Cloudflare's published limits (scripts/limits/platform.ts), one
// line per figure. The bundle is wrangler's own dry-run output; startup and memory are measured in workerd (the
// local runtime the deploy bundle runs on); the live figures come from a local Worker running long conversations
// (40-turn airline and banking_knowledge full_kb episodes, under a provider cap that sends turns through the
// queue) and then, in a second runtime, holding live episodes of every domain at once.
// Figures taken on a busy machine are provisional; a figure over its limit is marked OVER.
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import { RunConfigSchema } from '../src/core/schemas/run-config.ts';
import type { RunConfigInput } from '../src/core/schemas/run-config.ts';
import { loadDomain } from '../src/cli/data.ts';
import { workerBundle } from '../src/cli/local/bundle.ts';
import { domains } from '../domains/registry.ts';
import { text } from '../test/support/fake-openai.ts';
import type { CapturedRequest, FakeReply } from '../test/support/fake-openai.ts';
import { groupCpuSeconds, startHarness } from '../test/support/load-harness.ts';
import { ownGroup } from './bench-runtime.ts';
import { median } from './bench-quantile.ts';
import { connectInspector } from './inspector.ts';
import { limitLine } from './limits/platform.ts';
import { startLimitsTrace } from './limits/trace.ts';
import type { KindFigures } from './limits/trace.ts';

// Sizes of the load (`--live N --turns N` make it small, as a test does).
const { values: sizes } = parseArgs({ options: { live: { type: 'string', default: '20' }, turns: { type: 'string', default: '40' } } });
/** Live episodes of each domain held at once for the memory figure. */
const LIVE_EPISODES_PER_DOMAIN = Number(sizes.live);
/** User turns of a long conversation. */
const LONG_TURNS = Number(sizes.turns);
const KIB = 1024;

/** The deploy bundle (wrangler deploy --dry-run, the local worker's cached build) and its gzip size in KiB. */
const bundle = async (): Promise<{ scriptPath: string; gzipKiB: number }> => {
  const { scriptPath } = await workerBundle();
  return { scriptPath, gzipKiB: gzipSync(await readFile(scriptPath)).length / KIB };
};

/**
 * The bundle's startup CPU: the CPU a fresh workerd has spent once ready with the bundle, less the same with an
 * empty Worker (median of 3). CPU rather than wall time, so that a busy machine's waiting does not count.
 */
const startupMs = async (scriptPath: string): Promise<number> => {
  const group = await ownGroup();
  const readyCpuMs = async (script: string) => {
    const mf = new Miniflare(convertV4MiniflareOptions({ workers: [{ name: 'startup', modules: true, compatibilityDate: '2026-11-01', script }] }));
    try {
      await mf.ready;
      const { user, system } = await groupCpuSeconds(group, 'workerd');
      return (user + system) * 1000;
    } finally {
      await mf.dispose();
    }
  };
  // The bundle's text, without its source map reference (workerd would look for the map beside it).
  const script = (await readFile(scriptPath, 'utf8')).replace(/\n\/\/# sourceMappingURL=.*$/m, '');
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    rounds.push((await readyCpuMs(script)) - (await readyCpuMs('export default { fetch() { return new Response("ok") } }')));
  }
  return median(rounds);
};

/** The largest turn message an episode sends over the queue: `{episode: "<run>/<trial>/<task>", step}`, every task of every domain. */
const largestQueueMessage = async (maxSteps: number): Promise<number> => {
  let largest = 0;
  for (const name of Object.keys(domains)) {
    const { data } = await loadDomain(name);
    for (const task of data.tasks) {
      const message = JSON.stringify({ episode: `${crypto.randomUUID()}/999/${task.id}`, step: maxSteps });
      largest = Math.max(largest, new TextEncoder().encode(message).length);
    }
  }
  return largest;
};

/** The largest episode object's SQLite storage (its database and write-ahead log) in the local runtime's state, in MB. */
const largestEpisodeStorage = async (stateDir: string): Promise<number> => {
  const perObject = new Map<string, number>();
  for (const entry of await readdir(stateDir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile() || !entry.parentPath.includes('EpisodeDO') || !/\.sqlite(-wal)?$/.test(entry.name)) continue;
    const object = entry.name.replace(/-wal$/, '');
    const bytes = (await stat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size ?? 0;
    perObject.set(object, (perObject.get(object) ?? 0) + bytes);
  }
  return Math.max(0, ...perObject.values()) / 1e6;
};

const isUser = (request: CapturedRequest) => (request.body as { model?: string }).model === 'fake-user';
const messageCount = (request: CapturedRequest) => ((request.body as { messages?: unknown[] }).messages ?? []).length;

/** Long conversations: the user speaks LONG_TURNS times before it stops; the agent only answers. */
const longConversation = async (request: CapturedRequest): Promise<FakeReply> => {
  if (!isUser(request)) return text('Could you tell me a little more about that?');
  return text(messageCount(request) >= 2 * LONG_TURNS ? '###STOP###' : 'I still need help with my booking, here are more details.');
};

const run = (input: Omit<RunConfigInput, 'llm_agent' | 'llm_user' | 'llm_judge'>) =>
  RunConfigSchema.parse({ llm_agent: 'fake-agent', llm_user: 'fake-user', llm_judge: 'fake-judge', retry_delay: 0, ...input });

/** The four per-invocation figures: the largest of any invocation the runtime traced, and of which kind. */
const perInvocationLines = (byKind: Map<string, KindFigures>): string[] => {
  const kinds = [...byKind].map(([kind, f]) => `${f.invocations} ${kind}`).join(', ');
  const largest = (figure: Exclude<keyof KindFigures, 'invocations'>) => {
    const [kind, figures] = [...byKind].reduce((a, b) => (b[1][figure] > a[1][figure] ? b : a));
    return { value: figures[figure], kind };
  };
  const line = (name: Parameters<typeof limitLine>[0], figure: Exclude<keyof KindFigures, 'invocations'>, what: string) => {
    const { value, kind } = largest(figure);
    return limitLine(name, value, `${what}; largest in a ${kind} invocation, of ${kinds} traced`);
  };
  return [
    line('subrequests_per_invocation', 'subrequests', 'fetch and every binding call (D1 statement, Durable Object call, queue send, assets, rate limit)'),
    line('cpu_ms_per_invocation', 'cpuMs', 'upper bound: workerd process CPU over the invocation\'s wall span, 100 ms samples'),
    line('d1_params_per_statement', 'd1Params', 'bound parameters of one D1 statement'),
    line('d1_queries_per_invocation', 'd1Queries', 'D1 statements run, a batch\'s each'),
  ];
};

const main = async (): Promise<void> => {
  const built = await bundle();
  const lines: string[] = [];
  lines.push(limitLine('bundle_gzip', built.gzipKiB));
  lines.push(limitLine('startup_ms', await startupMs(built.scriptPath), 'workerd CPU until ready with the bundle less with an empty Worker, median of 3'));

  const trace = await startLimitsTrace();
  // Long conversations under a provider cap of 2 for their 4 episodes: turns without a free slot go through the
  // queue, so queue batches are traced along with HTTP requests, object calls and alarms.
  const queued = await startHarness(longConversation, { limitsTraceUrl: trace.url, workerVars: { PROVIDER_MAX_CONCURRENCY: '2' } });
  trace.sampleCpu(queued.worker().pid);
  try {
    const client = queued.client();
    // Long conversations: the largest turn request is what crosses the episode's RPC (and goes to the provider).
    const long = [
      run({ domain: 'airline', num_tasks: 2 }),
      run({ domain: 'banking_knowledge', num_tasks: 2, retrieval_config: 'full_kb' }),
    ];
    const ids = await Promise.all(long.map(async (config) => (await client.createRun(config)).run_id));
    let episodeStorage = 0;
    for (const id of ids) {
      while ((await client.run(id)).status === 'running') {
        episodeStorage = Math.max(episodeStorage, await largestEpisodeStorage(queued.stateDir));
        await sleep(1_000);
      }
    }
    lines.push(limitLine('do_storage_per_episode', episodeStorage, 'largest episode object of those runs, sampled while live'));
    const largestRequest = Math.max(...queued.fake.requests.map((r) => Buffer.byteLength(r.bodyText)));
    lines.push(limitLine('rpc_payload', largestRequest / KIB, `largest turn request of ${LONG_TURNS}-turn airline and full_kb episodes`));
    // A cron invocation: the scheduled handler, as the platform's trigger runs it.
    await fetch(`${queued.worker().url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('* * * * *')}`);
    lines.push(limitLine('queue_message', (await largestQueueMessage(long[0]!.max_steps)) / 1000, 'every task of every domain; a message names its episode and step, never the conversation'));
    // The last invocations' traces arrive after them.
    await sleep(2_000);
  } finally {
    await queued.close();
  }

  const harness = await startHarness(longConversation, { inspector: true, limitsTraceUrl: trace.url, workerVars: { PROVIDER_MAX_CONCURRENCY: '1000' } });
  trace.sampleCpu(harness.worker().pid);
  try {
    const client = harness.client();
    // Live episodes of every domain at once: each waits on a provider call that is never answered.
    harness.fake.setHandler(() => new Promise<never>(() => {}));
    const before = harness.fake.requests.length;
    for (const domain of Object.keys(domains)) {
      await client.createRun(run({ domain, num_tasks: LIVE_EPISODES_PER_DOMAIN, max_concurrency: LIVE_EPISODES_PER_DOMAIN }));
    }
    const live = LIVE_EPISODES_PER_DOMAIN * Object.keys(domains).length;
    const deadline = Date.now() + 180_000;
    while (harness.fake.requests.length - before < live && Date.now() < deadline) await sleep(1_000);
    const inspector = await connectInspector(harness.worker().inspectorPort!);
    await inspector.call('HeapProfiler.collectGarbage');
    const { usedSize } = (await inspector.call('Runtime.getHeapUsage')) as { usedSize: number };
    inspector.close();
    const waiting = harness.fake.requests.length - before;
    lines.push(limitLine('isolate_memory', usedSize / 1e6, `V8 heap after GC: every domain's data and ${waiting} live episodes (${LIVE_EPISODES_PER_DOMAIN} started per domain)`));
    await sleep(2_000);
    lines.push(...perInvocationLines(trace.byKind()));
  } finally {
    await harness.close();
    await trace.close();
  }
  console.log(lines.join('\n'));
  // A figure over its limit fails the run: the design has to change, not the limit.
  if (lines.some((line) => / OVER\b/.test(line))) process.exitCode = 1;
};

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`limits: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  });
}
