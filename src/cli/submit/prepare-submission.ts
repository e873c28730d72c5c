// `submit prepare PATH... -o DIR`: verifies the trajectory files, computes each domain's figures, asks the
// submitter for the rest, and writes DIR/<model>_<org>_<date>/{submission.json, trajectories/} (reference:
// prepare_submission in src/tau2/scripts/leaderboard/prepare_submission.py). Text submissions only.
import { cp, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import packageJson from '../../../package.json' with { type: 'json' };
import { formatFixed } from '../../core/py/index.ts';
import { buildSubmission, submissionDirName, submissionText } from '../../core/submission/build-submission.ts';
import { domainResults } from '../../core/submission/domain-results.ts';
import { SUBMISSION_FILE_NAME, TRAJECTORY_FILES_DIR_NAME } from '../../core/submission/submission.ts';
import type { DomainResults } from '../../core/submission/submission.ts';
import { validateTrajectorySet } from '../../core/submission/validate-submission.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { expandPaths } from '../expand-paths.ts';
import { loadResults } from '../results-file.ts';
import type { Asker } from '../ask.ts';
import { askSubmissionAnswers } from './submission-questions.ts';
import { verifyTrajectories } from './verify-trajectories.ts';

type Out = (line: string) => void;

export interface PrepareOptions {
  readonly outputDir: string;
  readonly verify: boolean;
  /** Today's date, YYYY-MM-DD. */
  readonly today: string;
}

const isVoice = (results: Results): boolean => results.info.audio_native_config !== null;

/** Each file's figures by domain, as the reference prints it processing them. */
const figuresByDomain = (files: readonly string[], all: readonly Results[], out: Out): Map<string, DomainResults> => {
  const figures = new Map<string, DomainResults>();
  all.forEach((results, i) => {
    const domain = results.info.environment_info.domain_name;
    const figure = domainResults(results);
    if (domain === 'banking_knowledge' && figure.retrieval_config === undefined) {
      out('  ⚠️  banking_knowledge trajectory is missing retrieval_config. You will be prompted to enter it manually.');
    }
    figures.set(domain, figure);
    out(`  ✅ Processed ${domain} trajectories from ${path.basename(files[i]!)}`);
  });
  return figures;
};

/** Copies each file into trajectories/ ({domain}_results.json for a file named results.json); domain → its name there. */
const copyTrajectories = async (dir: string, files: readonly string[], all: readonly Results[], out: Out): Promise<Record<string, string>> => {
  const names: Record<string, string> = {};
  for (const [i, results] of all.entries()) {
    const domain = results.info.environment_info.domain_name;
    const source = files[i]!;
    const name = path.basename(source) === 'results.json' ? `${domain}_results.json` : path.basename(source);
    const target = path.join(dir, name);
    await cp(source, target, { preserveTimestamps: true });
    out(`  📂 ${TRAJECTORY_FILES_DIR_NAME}/${name} (${formatFixed((await stat(target)).size / 1e6, 1)} MB)`);
    names[domain] = name;
  }
  return names;
};

const printSummary = (figures: ReadonlyMap<string, DomainResults>, dirName: string, out: Out): void => {
  out('\n🎉 Submission prepared successfully!');
  out('🎯 Modality: text');
  out('\n📈 Results:');
  for (const [domain, figure] of figures) {
    const scores = ([1, 2, 3, 4] as const).flatMap((k) => {
      const score = figure[`pass_${k}`];
      return score === undefined ? [] : [`Pass^${k}: ${formatFixed(score, 1)}%`];
    });
    const title = domain.charAt(0).toUpperCase() + domain.slice(1).toLowerCase();
    out(`  ${title}: ${scores.length > 0 ? scores.join(' | ') : 'No scores available'}`);
  }
  out('\n💡 Next steps:');
  out(`  1. Review ${dirName}/${SUBMISSION_FILE_NAME}`);
  out(`  2. Upload the full ${dirName}/ directory (with trajectories) to external storage (S3, Google Drive, etc.) and share the link with the maintainers`);
  out(`  3. Copy only ${dirName}/${SUBMISSION_FILE_NAME} to web/leaderboard/public/submissions/${dirName}/`);
  out(`  4. Add ${dirName} to the submissions array in manifest.json`);
  out('  5. Submit a pull request');
};

/** Prepares the submission; like the reference, a refusal is printed and ends with exit 0. */
export const prepareSubmission = async (paths: readonly string[], options: PrepareOptions, asker: Asker, out: Out): Promise<number> => {
  out('\n📂 Collecting trajectory files...');
  const files = await expandPaths(paths, '.json', out);
  if (files.length === 0) {
    out('❌ No trajectory files found');
    return 0;
  }
  out(`Found ${files.length} trajectory file(s):`);
  for (const file of files) out(`  • ${file}`);
  const all: Results[] = [];
  for (const file of files) all.push(await loadResults(file));
  if (all.some(isVoice)) throw new Error('voice submissions are not supported: tau2-edge runs text mode only');
  out('📝 Text submission detected');
  if (options.verify) {
    out('🔍 Running trajectory verification...');
    if ((await verifyTrajectories(files, out)) !== 0) {
      out('❌ Trajectory verification failed. Aborting submission preparation.');
      return 0;
    }
    out('✅ All trajectories passed verification!');
  }
  out('🔍 Validating submission set...');
  const set = validateTrajectorySet(all);
  if (!set.ok) {
    out(`❌ Submission set validation failed: ${set.error}`);
    return 0;
  }
  out('\n📊 Computing metrics...');
  const figures = figuresByDomain(files, all, out);
  out('\n📝 Creating submission...');
  const answers = await askSubmissionAnswers(
    asker,
    {
      model: all[0]!.info.agent_info.llm ?? '',
      userSimulator: all[0]!.info.user_info.llm ?? '',
      today: options.today,
      tau2BenchVersion: `tau2-edge ${packageJson.version}`,
    },
    out,
  );
  const banking = figures.get('banking_knowledge');
  if (banking !== undefined && banking.retrieval_config === undefined) {
    out('\n🔍 Banking knowledge retrieval configuration:');
    const config = await asker.ask("Enter retrieval config used for banking_knowledge (e.g., 'terminal', 'text-emb-3-large', 'qwen3-emb', 'bm25')");
    figures.set('banking_knowledge', { ...banking, retrieval_config: config });
  }
  const dirName = submissionDirName(answers, options.today);
  const dir = path.join(options.outputDir, dirName);
  const trajectories = path.join(dir, TRAJECTORY_FILES_DIR_NAME);
  await mkdir(trajectories, { recursive: true });
  out(`\n📁 Output: ${dir}`);
  const names = await copyTrajectories(trajectories, files, all, out);
  await writeFile(path.join(dir, SUBMISSION_FILE_NAME), submissionText(buildSubmission(answers, figures, names, options.today)));
  out(`  📊 ${SUBMISSION_FILE_NAME}`);
  printSummary(figures, dirName, out);
  return 0;
};
