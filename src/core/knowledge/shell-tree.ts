// The sandbox's file tree: the exported knowledge base in memory (built by shell-interpreter.ts), writable inside
// the knowledge-base directory in write mode and nowhere otherwise (as the sandbox mounts it), and its changes as a
// serialisable ShellState.
import type { IFileSystem, InMemoryFs } from 'just-bash/browser';
import { z } from 'zod';

/** The working directory: the reference runs commands in `<temp>/agentic_search_<id>/knowledge_base`. */
export const KB_DIR = '/tmp/agentic_search_sandbox/knowledge_base';

export type ShellMode = 'read' | 'write';

/** What write-mode commands changed, relative to the exported knowledge base (paths relative to KB_DIR). */
export const ShellStateSchema = z.object({
  written: z.record(z.string(), z.string()),
  removed: z.array(z.string()),
  directories: z.array(z.string()),
});
export type ShellState = z.infer<typeof ShellStateSchema>;

export const EMPTY_SHELL_STATE: ShellState = { written: {}, removed: [], directories: [] };

export const READ_ONLY = 'Read-only file system';

export class ReadOnlyFileSystemError extends Error {
  readonly code = 'EROFS';
  readonly path: string;
  constructor(path: string) {
    super(READ_ONLY);
    this.path = path;
  }
}

const WRITE_METHODS = new Set(['writeFile', 'appendFile', 'mkdir', 'rm', 'cp', 'mv', 'chmod', 'symlink', 'link', 'utimes']);

export const insideKb = (path: string): boolean => path === KB_DIR || path.startsWith(`${KB_DIR}/`);

/** The file tree as the sandbox mounts it: writable inside the knowledge base in write mode, nowhere otherwise. */
export const guarded = (fs: InMemoryFs, mode: ShellMode): IFileSystem =>
  new Proxy(fs, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && WRITE_METHODS.has(prop)) {
        return (...args: unknown[]) => {
          // Every write method's last path argument is the one written (the destination of cp, mv, ln).
          const paths = args.filter((arg): arg is string => typeof arg === 'string');
          const written = prop === 'writeFile' || prop === 'appendFile' ? paths.slice(0, 1) : paths.slice(-1);
          const denied = [...(prop === 'mv' || prop === 'rm' ? paths.slice(0, 1) : []), ...written].find(
            (p) => mode === 'read' || !insideKb(target.resolvePath(KB_DIR, p)),
          );
          // Output redirected to /dev/null (`2>/dev/null` passes the sandbox's checks) is discarded.
          if ((prop === 'writeFile' || prop === 'appendFile') && target.resolvePath(KB_DIR, paths[0] ?? '') === '/dev/null') {
            return Promise.resolve();
          }
          if (denied !== undefined) return Promise.reject(new ReadOnlyFileSystemError(denied));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });

/** A path inside the knowledge-base directory, relative to it. */
export const relative = (path: string): string => path.slice(KB_DIR.length + 1);

/** The tree's differences from the exported knowledge base. */
export const diffState = async (fs: InMemoryFs, base: ReadonlyMap<string, string>): Promise<ShellState> => {
  const written: Record<string, string> = {};
  const directories: string[] = [];
  const present = new Set<string>();
  for (const path of fs.getAllPaths().filter((p) => p.startsWith(`${KB_DIR}/`)).sort()) {
    const name = relative(path);
    const stat = await fs.lstat(path);
    if (stat.isDirectory) {
      directories.push(name);
      continue;
    }
    if (!stat.isFile) continue;
    present.add(name);
    const content = await fs.readFile(path);
    if (base.get(name) !== content) written[name] = content;
  }
  const removed = [...base.keys()].filter((name) => !present.has(name));
  return { written, removed, directories };
};
