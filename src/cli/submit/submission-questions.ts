// The questions `submit prepare` asks the submitter, in the reference's order and wording, with its defaults
// (reference: prepare_submission in src/tau2/scripts/leaderboard/prepare_submission.py).
import type { SubmissionAnswers } from '../../core/submission/build-submission.ts';
import type { Reference } from '../../core/submission/submission.ts';
import type { Asker } from '../ask.ts';

const REFERENCE_TYPES = ['paper', 'blog_post', 'documentation', 'model_card', 'github', 'huggingface', 'other'];

/** A YYYY-MM-DD calendar date, else null. */
const isoDate = (text: string): string | null => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text) ? text : null;
};

const orNull = (text: string): string | null => (text === '' ? null : text);

export interface QuestionDefaults {
  readonly model: string;
  readonly userSimulator: string;
  readonly today: string;
  readonly tau2BenchVersion: string;
}

const askReferences = async (asker: Asker): Promise<Reference[]> => {
  const references: Reference[] = [];
  let more = await asker.confirm('Add a reference link (paper, GitHub, etc.)?', false);
  while (more) {
    const title = await asker.ask('Reference title');
    const url = await asker.ask('Reference URL');
    const type = await asker.ask('Reference type', { choices: REFERENCE_TYPES, default: 'other' });
    references.push({ title, url, type });
    more = await asker.confirm('Add another reference?', false);
  }
  return references;
};

const askModelRelease = async (asker: Asker, out: (line: string) => void): Promise<SubmissionAnswers['modelRelease']> => {
  const text = await asker.ask('Model public release date (YYYY-MM-DD, distinct from evaluation date)', { default: '' });
  if (text === '') return null;
  const releaseDate = isoDate(text);
  if (releaseDate === null) {
    out('  ⚠️  Invalid release date format, skipping model_release.');
    return null;
  }
  const url = orNull(await asker.ask('Announcement URL (blog post, paper, model card, etc.)', { default: '' }));
  const title = url === null ? null : orNull(await asker.ask('Announcement title (link text in UI)', { default: '' }));
  return { releaseDate, url, title };
};

export const askSubmissionAnswers = async (
  asker: Asker,
  defaults: QuestionDefaults,
  out: (line: string) => void,
): Promise<SubmissionAnswers> => {
  const modelName = await asker.ask('Enter model name', { default: defaults.model });
  const userSimulator = await asker.ask('Enter user simulator model', { default: defaults.userSimulator });
  const modelOrganization = await asker.ask('Enter model organization (who developed the model)', { default: 'My-Organization' });
  const submittingOrganization = await asker.ask('Enter submitting organization (who ran the evaluation)', { default: modelOrganization });
  const email = await asker.ask('Enter contact email');
  out('\n📋 Optional information (press Enter to skip):');
  const contactName = orNull(await asker.ask('Contact name', { default: '' }));
  const github = orNull(await asker.ask('GitHub username', { default: '' }));
  const isNew = await asker.confirm('Should this model be highlighted as new on the leaderboard?', true);
  const submissionType = (await asker.ask('Submission type', { choices: ['standard', 'custom'], default: 'standard' })) as 'standard' | 'custom';
  const reasoningEffort = orNull(await asker.ask('Reasoning effort level (e.g. high, medium, low, none, enabled)', { default: '' }));
  out('\n🔬 Methodology information:');
  const dateText = await asker.ask('Evaluation date (YYYY-MM-DD)', { default: defaults.today });
  const evaluationDate = dateText === '' ? null : isoDate(dateText);
  if (dateText !== '' && evaluationDate === null) out('Invalid date format, skipping...');
  const tau2BenchVersion = orNull(await asker.ask('Tau-bench version', { default: defaults.tau2BenchVersion }));
  const notes = orNull(await asker.ask('Additional notes', { default: '' }));
  out('\n🔍 Verification information:');
  const modifiedPrompts = await asker.confirm('Did you modify any prompts (agent or user simulator)?', false);
  const omittedQuestions = await asker.confirm('Did you omit any questions/tasks from the evaluation?', false);
  const verificationDetails =
    modifiedPrompts || omittedQuestions ? orNull(await asker.ask('Please describe the modifications/omissions', { default: '' })) : null;
  out('\n📎 References (optional):');
  const references = await askReferences(asker);
  out('\n📅 Model release info (optional, used to track progress over time):');
  const modelRelease = await askModelRelease(asker, out);
  return {
    modelName,
    userSimulator,
    modelOrganization,
    submittingOrganization,
    email,
    contactName,
    github,
    isNew,
    submissionType,
    reasoningEffort,
    evaluationDate,
    tau2BenchVersion,
    notes,
    modifiedPrompts,
    omittedQuestions,
    verificationDetails,
    references,
    modelRelease,
  };
};
