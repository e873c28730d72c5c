// A new submission.json from the submitter's answers and the figures of their trajectory files (reference:
// prepare_submission in src/tau2/scripts/leaderboard/prepare_submission.py): the folder name, the object
// and its text (pydantic's model_dump_json(indent=2, exclude_none=True, ensure_ascii=False) and a newline).
import { dumpsPy } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { SUBMISSION_DOMAINS, SubmissionSchema } from './submission.ts';
import type { DomainResults, Reference, Submission } from './submission.ts';

export interface SubmissionAnswers {
  readonly modelName: string;
  readonly userSimulator: string;
  readonly modelOrganization: string;
  readonly submittingOrganization: string;
  readonly email: string;
  readonly contactName: string | null;
  readonly github: string | null;
  readonly isNew: boolean;
  readonly submissionType: 'standard' | 'custom';
  readonly reasoningEffort: string | null;
  readonly evaluationDate: string | null;
  readonly tau2BenchVersion: string | null;
  readonly notes: string | null;
  readonly modifiedPrompts: boolean;
  readonly omittedQuestions: boolean;
  readonly verificationDetails: string | null;
  readonly references: readonly Reference[];
  readonly modelRelease: { readonly releaseDate: string; readonly url: string | null; readonly title: string | null } | null;
}

const slugify = (s: string): string => s.toLowerCase().replaceAll(' ', '-').replaceAll('/', '-').replaceAll('.', '-');

/** `{model}_{organization}_{date}`, slugged. */
export const submissionDirName = (answers: SubmissionAnswers, today: string): string =>
  `${slugify(answers.modelName)}_${slugify(answers.modelOrganization)}_${today}`;

/**
 * The submission of text trajectories: `figures` by domain (only the leaderboard's domains are reported),
 * `trajectoryFiles` by domain as copied into trajectories/.
 */
export const buildSubmission = (
  answers: SubmissionAnswers,
  figures: ReadonlyMap<string, DomainResults>,
  trajectoryFiles: Readonly<Record<string, string>>,
  today: string,
): Submission => {
  const release = answers.modelRelease;
  const hasFiles = Object.keys(trajectoryFiles).length > 0;
  return SubmissionSchema.parse({
    model_name: answers.modelName,
    model_organization: answers.modelOrganization,
    submitting_organization: answers.submittingOrganization,
    submission_date: today,
    submission_type: answers.submissionType,
    modality: 'text',
    contact_info: { email: answers.email, name: answers.contactName, github: answers.github },
    results: Object.fromEntries(SUBMISSION_DOMAINS.map((d) => [d, figures.get(d)])),
    is_new: answers.isNew,
    trajectories_available: hasFiles,
    trajectory_files: hasFiles ? trajectoryFiles : null,
    references: answers.references.length > 0 ? answers.references : null,
    methodology: {
      evaluation_date: answers.evaluationDate,
      tau2_bench_version: answers.tau2BenchVersion,
      user_simulator: answers.userSimulator,
      notes: answers.notes,
      verification: {
        modified_prompts: answers.modifiedPrompts,
        omitted_questions: answers.omittedQuestions,
        details: answers.verificationDetails,
      },
    },
    model_release:
      release === null ? null : { release_date: release.releaseDate, announcement_url: release.url, announcement_title: release.title },
    reasoning_effort: answers.reasoningEffort,
  });
};

/** The value without its absent fields, at every depth (exclude_none). */
const withoutNone = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNone);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, withoutNone(v)]),
  );
};

export const submissionText = (submission: Submission): string =>
  `${dumpsPy(withoutNone(submission) as PyValue, { indent: 2, ensureAscii: false })}\n`;
