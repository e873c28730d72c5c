// A CPU profile of the local Worker's isolate, taken through workerd's DevTools inspector with the Chrome
// DevTools Protocol's Profiler domain, and a summary of where the time went per episode: self and inclusive
// time by function. Anonymous functions are named by their line of the bundle.
import { writeFile } from 'node:fs/promises';
import { connectInspector } from './inspector.ts';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

/** The Profiler domain's profile (what DevTools opens as a .cpuprofile file). */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
}

/** Samples every 200 µs: enough for an episode of a few milliseconds. */
const SAMPLING_INTERVAL_US = 200;
const SOURCE_WAIT_MS = 1_000;

export interface WorkerProfiler {
  /** Ends the profile; writes it to `file` (open it in DevTools) and returns it with its scripts' lines by file name. */
  stop(file: string): Promise<{ profile: CpuProfile; lines: ReadonlyMap<string, readonly string[]> }>;
}

/** Connects to the inspector on `port` and starts profiling the Worker's isolate. */
export const startWorkerProfile = async (port: number): Promise<WorkerProfiler> => {
  const scripts: { scriptId: string; url: string }[] = [];
  const { call, close } = await connectInspector(port, (method, params) => {
    if (method === 'Debugger.scriptParsed') scripts.push(params as { scriptId: string; url: string });
  });

  // The bundle's source, to name anonymous functions by their line (the debugger is off again while profiling).
  await call('Debugger.enable');
  await new Promise((resolve) => setTimeout(resolve, SOURCE_WAIT_MS));
  const lines = new Map<string, readonly string[]>();
  for (const script of scripts.filter((s) => s.url.startsWith('file:'))) {
    const { scriptSource } = (await call('Debugger.getScriptSource', { scriptId: script.scriptId })) as { scriptSource: string };
    // The profile names scripts by file name only.
    lines.set(script.url.split('/').at(-1)!, scriptSource.split('\n'));
  }
  await call('Debugger.disable');
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
  await call('Profiler.start');
  return {
    async stop(file) {
      const { profile } = (await call('Profiler.stop')) as { profile: CpuProfile };
      close();
      await writeFile(file, JSON.stringify(profile));
      return { profile, lines };
    },
  };
};

/** Where the profiled time went, per episode: the busy share, then the top functions by self and inclusive time. */
export const profileSummary = (profile: CpuProfile, lines: ReadonlyMap<string, readonly string[]>, episodes: number, top = 25): string => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const samples = new Map<number, number>();
  for (const id of profile.samples) samples.set(id, (samples.get(id) ?? 0) + 1);
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);

  const label = ({ functionName, url, lineNumber }: CallFrame): string => {
    const file = url.split('/').at(-1) ?? '';
    if (functionName !== '') return lineNumber < 0 ? functionName : `${functionName} (${file}:${lineNumber + 1})`;
    const code = lines.get(file)?.[lineNumber]?.trim().slice(0, 70);
    return code ? `${code} (${file}:${lineNumber + 1})` : `(anonymous) ${file}:${lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, count] of samples) {
    const own = label(byId.get(id)!.callFrame);
    self.set(own, (self.get(own) ?? 0) + count);
    // A function counts once per sample, however often it recurs on the stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + count);
    }
  }
  const idle = self.get('(idle)') ?? 0;
  const perEpisode = (count: number) => `${((count * msPerSample) / Math.max(1, episodes)).toFixed(2).padStart(6)} ms`;
  const rows = (counts: Map<string, number>) =>
    [...counts]
      .filter(([name]) => name !== '(root)' && name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => `  ${perEpisode(count)}  ${name}`);
  return [
    `Worker isolate: ${perEpisode(profile.samples.length - idle)} busy per episode of ${perEpisode(profile.samples.length)} profiled (${((100 * (profile.samples.length - idle)) / Math.max(1, profile.samples.length)).toFixed(0)}% busy)`,
    `self time per episode:`,
    ...rows(self),
    `inclusive time per episode:`,
    ...rows(inclusive),
  ].join('\n');
};
