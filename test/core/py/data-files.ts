// Locates the fetched tau2 reference data for the py round-trip tests (same folders the CLI and setup use).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const candidates = (): string[] =>
  [process.env.TAU2_EDGE_DATA_DIR, path.join(repoRoot, 'data', 'tau2'), path.join(repoRoot, '..', 'shared', 'tau2')]
    .filter((dir): dir is string => dir !== undefined && dir !== '');

/** The text of a reference data file such as `domains/mock/tasks.json`; throws when no data folder has it. */
export const readDataFile = (file: string): string => {
  for (const dir of candidates()) {
    const full = path.join(dir, file);
    if (existsSync(full)) return readFileSync(full, 'utf8');
  }
  throw new Error(`reference data file ${file} not found under ${candidates().join(', ')} (run: bash scripts/setup.sh)`);
};
