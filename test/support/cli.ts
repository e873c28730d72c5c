// Runs the command line in the test's own process, through the same entry point users run, and captures
// what it prints, so CLI tests can assert on the printed lines and the exit code.
import { main } from '../../src/cli/main.ts';

export interface CliOutput {
  code: number;
  /** Everything printed to stdout. */
  text: string;
  /** The printed lines, empty ones left out. */
  lines: string[];
}

/** Runs `tau2-edge <argv>`; `whileRunning` sees the output so far and may act on it (e.g. stop a run). */
export const capture = async (argv: string[], whileRunning?: (text: () => string) => Promise<void>): Promise<CliOutput> => {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => chunks.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    const [code] = await Promise.all([main(argv), whileRunning?.(() => chunks.join(''))]);
    const text = chunks.join('');
    return { code, text, lines: text.split('\n').filter(Boolean) };
  } finally {
    process.stdout.write = write;
  }
};
