// The commit of this checkout, recorded in results files as `info.git_commit` ("unknown" outside git).
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../local/worker.ts';

export const gitCommit = (): string => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
};
