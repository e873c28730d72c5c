// A zod failure as the caller's issues (`{path, message}`), whatever wire carries them.
import { z } from 'zod';

export const ApiIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ApiIssue = z.infer<typeof ApiIssueSchema>;

/** A zod issue in the caller's terms: the expected JSON type, never the engine's internal class of what came. */
const issueMessage = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_type' ? `Invalid input: expected ${issue.expected}` : issue.message;

export const zodIssues = (error: z.ZodError): ApiIssue[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issueMessage(issue) }));
