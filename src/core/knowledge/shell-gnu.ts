// GNU layouts for commands whose output in the interpreter differs from the sandbox host's tools; each wraps
// the interpreter's own command.
import { defineCommand } from 'just-bash/browser';

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `ls` with its operands laid out as GNU ls does: the interpreter's own puts a blank line between every operand
 * and words a missing one differently, so operands are listed one at a time through it and joined the GNU way
 * (errors first, then the files as one listing, then each directory under a `name:` header).
 */
export const gnuLs = defineCommand('ls', async (args, ctx) => {
  const original = ctx.origCommand;
  if (!original) throw new Error('ls: the interpreter has no built-in ls to wrap');
  const end = args.indexOf('--');
  const head = end < 0 ? args : args.slice(0, end);
  const options = head.filter((arg) => arg.startsWith('-') && arg.length > 1);
  const operands = [...head.filter((arg) => !(arg.startsWith('-') && arg.length > 1)), ...(end < 0 ? [] : args.slice(end + 1))];
  if (operands.length === 0) return original(args);

  const listDirectories = !options.some((o) => o === '--directory' || (/^-[^-]/.test(o) && o.includes('d')));
  const missing: string[] = [];
  const files: string[] = [];
  const directories: string[] = [];
  for (const operand of operands) {
    try {
      const stat = await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, operand));
      (stat.isDirectory && listDirectories ? directories : files).push(operand);
    } catch {
      missing.push(operand);
    }
  }
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const list = async (operand: string) => {
    const result = await original([...options, '--', operand]);
    stderr += result.stderr;
    if (result.exitCode !== 0) exitCode = result.exitCode;
    return result.stdout;
  };
  for (const operand of missing) {
    stderr += `ls: cannot access '${operand}': No such file or directory\n`;
    exitCode = 2;
  }
  if (operands.length === 1 && missing.length === 0) return original(args);
  for (const file of files.sort(byCodePoint)) stdout += await list(file);
  for (const directory of directories.sort(byCodePoint)) {
    stdout += `${stdout ? '\n' : ''}${directory}:\n${await list(directory)}`;
  }
  return { stdout, stderr, exitCode };
});

/** `uniq -c` with GNU's count column (`%7d `); the interpreter pads counts to 4. */
export const gnuUniq = defineCommand('uniq', async (args, ctx) => {
  const original = ctx.origCommand;
  if (!original) throw new Error('uniq: the interpreter has no built-in uniq to wrap');
  const result = await original(args);
  const counting = args.some((arg) => arg === '--count' || (/^-[^-]/.test(arg) && arg.includes('c')));
  if (!counting) return result;
  return { ...result, stdout: result.stdout.replace(/^ *(\d+) /gm, (_m, count: string) => `${count.padStart(7)} `) };
});
