// The per-invocation figures of `npm run limits`, from the local runtime's tail Worker (src/cli/local/runtime.ts
// limits_trace setting): for each invocation the runtime reports, the calls the Worker logged under it
// (src/worker/limits-trace.ts) and an upper bound of its CPU time.
//
// Subrequests: Cloudflare counts "fetch() requests and requests to other Cloudflare services (D1, Durable
// Objects, Queues, static assets and other bindings)" per invocation
// (https://developers.cloudflare.com/workers/platform/limits/#subrequests); every logged call counts here, D1
// statements one each (a batch's statements too), so the figure is never under the platform's count.
// D1: "Maximum bound parameters per query: 100" and "Queries per Worker invocation: 1000 (Paid)"
// (https://developers.cloudflare.com/d1/platform/limits/); a batch counts each of its statements.
// CPU: local workerd reports no per-invocation CPU (a tail event's cpuTime is 0 outside Cloudflare), so the bound
// is the workerd process's CPU over the invocation's wall span: from its start (the trace's event timestamp,
// rounded down to the previous 100 ms sample) to its trace's arrival. That includes everything else the process
// did meanwhile, so it is never under the invocation's own CPU.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { groupCpuSeconds } from '../../test/support/load-harness.ts';

interface TracedInvocation {
  readonly kind: string;
  readonly start: number;
  readonly lines: readonly string[];
}

export interface KindFigures {
  invocations: number;
  subrequests: number;
  d1Queries: number;
  d1Params: number;
  cpuMs: number;
}

export interface LimitsTrace {
  readonly url: string;
  /** Starts sampling the CPU of the runtime's workerd (its process group), in place of an earlier runtime's. */
  sampleCpu(pgid: number): void;
  /** The largest figure of any invocation, by invocation kind (http, queue, rpc, alarm, cron). */
  byKind(): Map<string, KindFigures>;
  close(): Promise<void>;
}

const SAMPLE_MS = 100;

export const startLimitsTrace = async (): Promise<LimitsTrace> => {
  const samples: { at: number; cpuMs: number }[] = [];
  const cpuNow = async (pgid: number) => {
    const { user, system } = await groupCpuSeconds(pgid, 'workerd');
    return (user + system) * 1000;
  };
  let pgid: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  const figures = new Map<string, KindFigures>();
  const record = async (invocation: TracedInvocation): Promise<void> => {
    const counts = { subrequests: invocation.lines.length, d1Queries: 0, d1Params: 0 };
    for (const line of invocation.lines) {
      const [, what, params] = line.split(' ');
      if (what !== 'd1') continue;
      counts.d1Queries++;
      counts.d1Params = Math.max(counts.d1Params, Number(params));
    }
    let cpuMs = 0;
    if (pgid !== null && samples.length > 0) {
      const before = samples.findLast((s) => s.at <= invocation.start) ?? samples[0]!;
      cpuMs = (await cpuNow(pgid)) - before.cpuMs;
    }
    const kind = figures.get(invocation.kind) ?? { invocations: 0, subrequests: 0, d1Queries: 0, d1Params: 0, cpuMs: 0 };
    figures.set(invocation.kind, {
      invocations: kind.invocations + 1,
      subrequests: Math.max(kind.subrequests, counts.subrequests),
      d1Queries: Math.max(kind.d1Queries, counts.d1Queries),
      d1Params: Math.max(kind.d1Params, counts.d1Params),
      cpuMs: Math.max(kind.cpuMs, cpuMs),
    });
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const invocations = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TracedInvocation[];
      void Promise.all(invocations.map(record)).finally(() => response.end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    sampleCpu(group) {
      clearInterval(timer);
      samples.length = 0;
      pgid = group;
      timer = setInterval(() => {
        const at = Date.now();
        void cpuNow(group).then((cpuMs) => samples.push({ at, cpuMs }));
      }, SAMPLE_MS);
    },
    byKind: () => figures,
    close: async () => {
      clearInterval(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
