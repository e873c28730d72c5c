// Runs the command line in the test's own process, through the same entry point users run, and captures
// what it prints, so CLI tests can assert on the printed lines and the exit code.
import { main } from '../../src/cli/main.ts';

export interface CliOutput {
  code: number;
  /** Everything printed to stdout. */
  text: string;
  /** The printed lines, empty ones left out. */
  lines: string[];
  /** Everything printed to stderr. */
  errors: string;
}

/** Runs `tau2-edge <argv>`; `whileRunning` sees the output so far and may act on it (e.g. stop a run). */
export const capture = async (argv: string[], whileRunning?: (text: () => string) => Promise<void>): Promise<CliOutput> => {
  const chunks: string[] = [];
  const errorChunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string) => chunks.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => errorChunks.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const [code] = await Promise.all([main(argv), whileRunning?.(() => chunks.join(''))]);
    const text = chunks.join('');
    return { code, text, lines: text.split('\n').filter(Boolean), errors: errorChunks.join('') };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
};
