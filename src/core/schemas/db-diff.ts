// Where a simulation's final DB differs from the gold one (changed paths only): the evaluator's answer, served by
// GET /v1/simulations/:id/db-diff.
import { z } from 'zod';

/** GET /v1/simulations/:id/db-diff: where the final DB differs from the gold one, changed paths only. */
export const DbDiffSchema = z.object({
  simulation_id: z.string(),
  /** The recorded DB check's verdict; null when the task's reward has no DB check. */
  db_match: z.boolean().nullable(),
  differences: z.array(
    z.object({
      /** The agent's DB, or the user's (telecom's device). */
      db: z.enum(['agent', 'user']),
      path: z.array(z.string()),
      /** The value as JSON text; null where the key is absent. */
      gold: z.string().nullable(),
      predicted: z.string().nullable(),
    }),
  ),
});
export type DbDiff = z.infer<typeof DbDiffSchema>;
