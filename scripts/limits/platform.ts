// Cloudflare's published limits the Worker is measured against (`npm run limits`), each with where it is
// published. Where a plan matters, the Workers Paid figure (the plan tau2-edge deploys on), or the stricter one
// when the deploy must also fit the Free plan.
export interface PlatformLimit {
  readonly limit: number;
  readonly unit: string;
}

export const PLATFORM_LIMITS = {
  // "Worker size: 3 MB (Workers Free) / 10 MB (Workers Paid)", after compression:
  // https://developers.cloudflare.com/workers/platform/limits/#worker-size (cloudflare-docs PR #31067, May 2026,
  // replaces it by 64 MiB uncompressed on every plan; the Free plan's compressed 3 MB is kept as the stricter one).
  bundle_gzip: { limit: 3 * 1024, unit: 'KiB' },
  // "Worker startup time: 1 second": https://developers.cloudflare.com/workers/platform/limits/#worker-startup-time
  startup_ms: { limit: 1_000, unit: 'ms' },
  // "Memory: 128 MB" per isolate, shared by every request and object it serves:
  // https://developers.cloudflare.com/workers/platform/limits/#memory
  isolate_memory: { limit: 128, unit: 'MB' },
  // "Subrequests: 50/request (Free), 10,000/request (Paid)": https://developers.cloudflare.com/workers/platform/limits/#subrequests
  subrequests_per_invocation: { limit: 10_000, unit: 'subrequests' },
  // "Maximum message size: 128 KB": https://developers.cloudflare.com/queues/platform/limits/
  queue_message: { limit: 128, unit: 'KB' },
  // "CPU time: 5 min" (Paid; 30 s unless limits.cpu_ms raises it, as wrangler.toml does):
  // https://developers.cloudflare.com/workers/platform/limits/#cpu-time
  cpu_ms_per_invocation: { limit: 300_000, unit: 'ms' },
  // "Maximum bound parameters per query: 100": https://developers.cloudflare.com/d1/platform/limits/
  d1_params_per_statement: { limit: 100, unit: 'parameters' },
  // "Queries per Worker invocation: 1000 (Workers Paid) / 50 (Free)": https://developers.cloudflare.com/d1/platform/limits/
  d1_queries_per_invocation: { limit: 1_000, unit: 'queries' },
  // "Storage per Durable Object: 10 GB"; "Key and value combined cannot exceed 2 MB":
  // https://developers.cloudflare.com/durable-objects/platform/limits/
  do_storage_per_episode: { limit: 10 * 1024, unit: 'MB' },
  // Serialized RPC arguments or return values: 32 MiB (raised from 1 MiB, cloudflare-docs PR #21856, April 2025):
  // https://developers.cloudflare.com/workers/runtime-apis/rpc/ ; workerd's own error says the same.
  rpc_payload: { limit: 32 * 1024, unit: 'KiB' },
} as const satisfies Record<string, PlatformLimit>;

export type LimitName = keyof typeof PLATFORM_LIMITS;

/** `limit NAME: MEASURED / LIMIT UNIT`, or `not measured` in place of the figure. */
export const limitLine = (name: LimitName, measured: number | null, note = ''): string => {
  const { limit, unit } = PLATFORM_LIMITS[name];
  const figure = measured === null ? 'not measured' : String(Math.round(measured * 10) / 10);
  const over = measured !== null && measured > limit ? ' OVER' : '';
  return `limit ${name}: ${figure} / ${limit} ${unit}${over}${note ? `  (${note})` : ''}`;
};
