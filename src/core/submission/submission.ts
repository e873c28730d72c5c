// A leaderboard submission's submission.json (reference: src/tau2/scripts/leaderboard/submission.py). Field
// order is the file's key order; nested objects refuse unknown keys, the top level ignores them, as there.
import { z } from 'zod';
import { PyFloatSchema } from '../schemas/py-types.ts';
import type { PyFloat } from '../py/index.ts';

export const SUBMISSION_FILE_NAME = 'submission.json';
export const TRAJECTORY_FILES_DIR_NAME = 'trajectories';
/** The domains a submission reports, in its `results` order. */
export const SUBMISSION_DOMAINS = ['retail', 'airline', 'telecom', 'banking_knowledge'] as const;
export type SubmissionDomain = (typeof SUBMISSION_DOMAINS)[number];

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const bounded = (max: number | null) =>
  PyFloatSchema.refine((v: PyFloat) => v.value >= 0, 'Input should be greater than or equal to 0').refine(
    (v: PyFloat) => max === null || v.value <= max,
    `Input should be less than or equal to ${max}`,
  );

const DateSchema = z.iso.date();

export const ContactInfoSchema = z.strictObject({
  email: optional(z.string()),
  name: optional(z.string()),
  github: optional(z.string()),
});

export const DomainResultsSchema = z.strictObject({
  pass_1: optional(bounded(100)),
  pass_2: optional(bounded(100)),
  pass_3: optional(bounded(100)),
  pass_4: optional(bounded(100)),
  cost: optional(bounded(null)),
  retrieval_config: optional(z.string()),
});
export type DomainResults = z.infer<typeof DomainResultsSchema>;

export const SubmissionResultsSchema = z
  .strictObject({
    retail: optional(DomainResultsSchema),
    airline: optional(DomainResultsSchema),
    telecom: optional(DomainResultsSchema),
    banking_knowledge: optional(DomainResultsSchema),
  })
  .refine(
    (r) => r.banking_knowledge === undefined || r.banking_knowledge.retrieval_config !== undefined,
    "banking_knowledge results require retrieval_config (e.g. 'bm25', 'terminal', 'text-emb-3-large')",
  );

export const ReferenceSchema = z.strictObject({ title: z.string(), url: z.string(), type: optional(z.string()) });
export type Reference = z.infer<typeof ReferenceSchema>;

export const ModelReleaseSchema = z
  .strictObject({
    release_date: optional(DateSchema),
    announcement_url: optional(z.string()),
    announcement_title: optional(z.string()),
  })
  .refine(
    (r) => r.announcement_url === undefined || r.release_date !== undefined,
    'model_release.announcement_url is set but model_release.release_date is not. Provide a release date when linking to a release announcement.',
  );

export const VerificationSchema = z.strictObject({
  modified_prompts: optional(z.boolean()),
  omitted_questions: optional(z.boolean()),
  details: optional(z.string()),
});

export const MethodologySchema = z.strictObject({
  evaluation_date: optional(DateSchema),
  tau2_bench_version: optional(z.string()),
  user_simulator: optional(z.string()),
  notes: optional(z.string()),
  verification: optional(VerificationSchema),
});

const VoiceConfigSchema = z.strictObject({
  provider: z.string(),
  model: z.string(),
  tick_duration_seconds: optional(PyFloatSchema),
  max_steps_seconds: optional(PyFloatSchema),
  user_tts_provider: optional(z.string()),
  pipeline: optional(z.strictObject({ asr: optional(z.string()), llm: optional(z.string()), tts: optional(z.string()) })),
});

const InteractionMetricsPanelSchema = z.strictObject({
  response_latency_mean: optional(PyFloatSchema),
  yield_latency_mean: optional(PyFloatSchema),
  response_rate: optional(PyFloatSchema),
  yield_rate: optional(PyFloatSchema),
  agent_interruption_rate: optional(PyFloatSchema),
  selectivity_backchannel: optional(PyFloatSchema),
  selectivity_vocal_tic: optional(PyFloatSchema),
  selectivity_non_directed: optional(PyFloatSchema),
  counts: optional(z.record(z.string(), z.number().int().nullable())),
});

const InteractionMetricsSchema = z.strictObject({
  version: optional(z.string()),
  config: optional(z.record(z.string(), PyFloatSchema)),
  domains: optional(z.record(z.string(), InteractionMetricsPanelSchema)),
  overall: optional(InteractionMetricsPanelSchema),
});

export const SubmissionSchema = z.object({
  model_name: z.string(),
  model_organization: z.string(),
  submitting_organization: z.string(),
  submission_date: DateSchema,
  submission_type: z.enum(['standard', 'custom']).default('standard'),
  modality: z.enum(['text', 'voice']).default('text'),
  contact_info: ContactInfoSchema,
  results: SubmissionResultsSchema,
  is_new: z.boolean().default(false),
  trajectories_available: z.boolean().default(false),
  trajectory_files: optional(z.record(z.string(), z.string())),
  references: optional(z.array(ReferenceSchema)),
  methodology: optional(MethodologySchema),
  voice_config: optional(VoiceConfigSchema),
  interaction_metrics: optional(InteractionMetricsSchema),
  model_release: optional(ModelReleaseSchema),
  reasoning_effort: optional(z.string()),
});
export type Submission = z.infer<typeof SubmissionSchema>;

/** The results of one submission domain; any other name is refused with the reference's message. */
export const domainResultsOf = (results: Submission['results'], domain: string): DomainResults | undefined => {
  const known = SUBMISSION_DOMAINS.find((d) => d === domain.toLowerCase());
  if (known === undefined) {
    throw new Error(`Invalid domain: ${domain}. Must be retail, airline, telecom, or banking_knowledge.`);
  }
  return results[known];
};
