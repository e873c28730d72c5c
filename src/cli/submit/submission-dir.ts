// A prepared submission folder: submission.json and the trajectory files beside it (reference:
// check_and_load_submission_data in src/tau2/scripts/leaderboard/prepare_submission.py).
import { access, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parsePyJson } from '../../core/py/index.ts';
import { SUBMISSION_FILE_NAME, SubmissionSchema, TRAJECTORY_FILES_DIR_NAME } from '../../core/submission/submission.ts';
import type { Submission } from '../../core/submission/submission.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { parseOrExplain } from '../cli-command.ts';
import { expandPaths } from '../expand-paths.ts';
import { loadResults } from '../results-file.ts';

export interface SubmissionData {
  readonly submission: Submission;
  readonly trajectoryFiles: readonly string[];
  readonly results: readonly Results[];
}

export type LoadedSubmission = { readonly ok: true; readonly data: SubmissionData } | { readonly ok: false; readonly error: string };

const present = (p: string) => access(p).then(() => true, () => false);

/** A voice submission keeps one experiment folder per domain; a text one, result files. */
const trajectoryFilesOf = async (dir: string, submission: Submission, warn: (line: string) => void): Promise<string[]> => {
  if (submission.modality !== 'voice') return expandPaths([dir], '.json', warn);
  const experiments = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  const nested = experiments.map((e) => path.join(dir, e.name, 'results.json'));
  const found = (await Promise.all(nested.map(async (f) => ((await present(f)) ? [f] : [])))).flat().sort();
  if (found.length > 0) return found;
  return (await present(path.join(dir, 'results.json'))) ? [path.join(dir, 'results.json')] : [];
};

export const loadSubmissionDir = async (dir: string, warn: (line: string) => void): Promise<LoadedSubmission> => {
  if (!(await present(dir))) return { ok: false, error: `Submission directory ${dir} not found` };
  const file = path.join(dir, SUBMISSION_FILE_NAME);
  if (!(await present(file))) return { ok: false, error: `Submission file ${file} not found` };
  const submission = parseOrExplain(SubmissionSchema, parsePyJson(await readFile(file, 'utf8')));
  const trajectories = path.join(dir, TRAJECTORY_FILES_DIR_NAME);
  if (!(await present(trajectories))) return { ok: false, error: `Trajectory files directory ${trajectories} not found` };
  const trajectoryFiles = await trajectoryFilesOf(trajectories, submission, warn);
  const results = [];
  for (const trajectoryFile of trajectoryFiles) results.push(await loadResults(trajectoryFile));
  return { ok: true, data: { submission, trajectoryFiles, results } };
};
