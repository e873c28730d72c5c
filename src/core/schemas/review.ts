// The LLM conversation review attached to a simulation (reference: Review, ReviewError, UserOnlyReview,
// UserOnlyReviewError, AuthenticationClassification in src/tau2/data_model/simulation.py). Key order is the
// reference's, so a reviewed results file serializes as the reference's does.
import { z } from 'zod';
import { PyFloatSchema, PyIntSchema, nullable } from './py-types.ts';

export const ReviewErrorSchema = z.object({
  source: z.enum(['user', 'agent', 'unknown']),
  error_type: nullable(z.string()),
  error_tags: z.array(z.string()).default([]),
  severity: nullable(z.enum(['minor', 'critical', 'critical_helped', 'critical_hindered'])),
  turn_idx: nullable(PyIntSchema),
  tick_start: nullable(PyIntSchema),
  tick_end: nullable(PyIntSchema),
  reasoning: z.string(),
  correct_behavior: nullable(z.string()),
});
export type ReviewError = z.infer<typeof ReviewErrorSchema>;

export const ReviewSchema = z.object({
  summary: z.string().default(''),
  agent_error: z.boolean().default(false),
  user_error: z.boolean().default(false),
  critical_user_error: z.boolean().default(false),
  has_errors: z.boolean(),
  errors: z.array(ReviewErrorSchema).default([]),
  cost: nullable(PyFloatSchema),
});
export type Review = z.infer<typeof ReviewSchema>;

export const UserOnlyReviewErrorSchema = z.object({
  turn_idx: nullable(PyIntSchema),
  tick_start: nullable(PyIntSchema),
  tick_end: nullable(PyIntSchema),
  error_type: z.string().default('content_error'),
  error_tags: z.array(z.string()).default([]),
  // The reference's model takes only these two, though its prompt asks for critical_helped/critical_hindered.
  severity: nullable(z.enum(['minor', 'critical'])),
  reasoning: z.string(),
  user_message: nullable(z.string()),
  correct_behavior: nullable(z.string()),
});
export type UserOnlyReviewError = z.infer<typeof UserOnlyReviewErrorSchema>;

export const UserOnlyReviewSchema = z.object({
  summary: z.string().default(''),
  user_error: z.boolean().default(false),
  critical_user_error: z.boolean().default(false),
  has_errors: z.boolean(),
  errors: z.array(UserOnlyReviewErrorSchema).default([]),
  cost: nullable(PyFloatSchema),
});
export type UserOnlyReview = z.infer<typeof UserOnlyReviewSchema>;

export const AuthenticationClassificationSchema = z.object({
  status: z.enum(['succeeded', 'failed', 'not_needed']),
  reasoning: z.string().default(''),
  cost: nullable(PyFloatSchema),
});
export type AuthenticationClassification = z.infer<typeof AuthenticationClassificationSchema>;
