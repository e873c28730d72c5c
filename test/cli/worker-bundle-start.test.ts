// What the Worker evaluates when an isolate starts: the project's own deploy bundle (the one the local runtime
// runs) ships the shell's interpreter, the AI SDK (`ai`, used by the providers other than the default route and by
// the embedder) and those providers' SDKs, the Swagger UI and the Unicode name table, but reaches each only
// through a dynamic import, so that esbuild wraps it in a lazy initialiser and a start never evaluates it. A static
// import of any of them from the start's import graph (e.g. a value imported from just-bash into a module the
// Worker loads) fails here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workerBundle } from '../../src/cli/local/bundle.ts';

const MetafileSchema = z.object({
  inputs: z.record(z.string(), z.object({ imports: z.array(z.object({ path: z.string(), kind: z.string() })) })),
  outputs: z.record(z.string(), z.object({ entryPoint: z.string().optional(), inputs: z.record(z.string(), z.unknown()) })),
});
type Metafile = z.infer<typeof MetafileSchema>;

/** The bundle's modules a start evaluates: those reachable from the entry without a dynamic import. */
const evaluatedAtStart = (meta: Metafile, entry: string): Set<string> => {
  const reached = new Set([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const { path: imported, kind } of meta.inputs[file]?.imports ?? []) {
      if (kind === 'dynamic-import' || reached.has(imported) || !(imported in meta.inputs)) continue;
      reached.add(imported);
      queue.push(imported);
    }
  }
  return reached;
};

const DEFERRED = [
  'node_modules/just-bash/',
  'src/core/knowledge/shell-interpreter.ts',
  'node_modules/ai/',
  'node_modules/@ai-sdk/gateway/',
  'node_modules/@ai-sdk/openai-compatible/',
  'node_modules/@ai-sdk/openai/',
  'node_modules/@ai-sdk/anthropic/',
  'node_modules/@ai-sdk/google/',
  'node_modules/swagger-ui-dist/',
  'node_modules/@unicode/unicode-14.0.0/',
];

describe("the Worker bundle's start", () => {
  it('ships the interpreter, the AI SDK and the other providers\u2019 SDKs, the Swagger UI and the name table, and evaluates none of them at start', async () => {
    const bundle = await workerBundle();
    const meta = MetafileSchema.parse(JSON.parse(await readFile(path.join(path.dirname(bundle.dir), 'meta.json'), 'utf8')));
    const output = Object.values(meta.outputs).find((o) => o.entryPoint !== undefined);
    expect(output?.entryPoint).toBe('src/worker/index.ts');
    const shipped = Object.keys(output!.inputs);
    const atStart = evaluatedAtStart(meta, output!.entryPoint!);
    // The default route's client is evaluated at start: the walk does follow static imports.
    expect(atStart).toContain('src/core/llm/ai-sdk-client.ts');
    for (const prefix of DEFERRED) {
      expect(shipped.filter((file) => file.startsWith(prefix)), `${prefix} is in the bundle`).not.toEqual([]);
      expect([...atStart].filter((file) => file.startsWith(prefix)), `${prefix} is evaluated at start`).toEqual([]);
    }
  }, 240_000);
});
