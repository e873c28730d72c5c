// Tokens and cost of a simulation's model calls by role: the agent's and the user simulator's turns, the
// NL-assertion judge, retrieval (embeddings and the reranker) and the reviewer. A simulation keeps it in its
// `info` (a dict the reference's SimulationRun accepts as it is), a run's totals add them up.
import { z } from 'zod';
import { PyFloatSchema } from './py-types.ts';

export const CostRoleSchema = z.enum(['agent', 'user', 'judge', 'retrieval', 'review']);
export type CostRole = z.infer<typeof CostRoleSchema>;

const tokens = z.number().int().nonnegative();
/** USD as JSON writes it or as `parsePyJson` reads it back (a PyFloat). */
export const UsdSchema = z
  .union([z.number(), PyFloatSchema])
  .transform((v): number => (typeof v === 'number' ? v : v.value))
  .meta({ type: 'number' });

/** One role's calls. Cached tokens are part of `prompt_tokens`, reasoning tokens part of `completion_tokens`. */
export const RoleUsageSchema = z.object({
  calls: tokens,
  prompt_tokens: tokens,
  completion_tokens: tokens,
  reasoning_tokens: tokens,
  cache_read_tokens: tokens,
  cache_write_tokens: tokens,
  /** USD of the calls to priced models. */
  cost: UsdSchema,
  /** Models called that have no known price: their calls count in the tokens but not in `cost`. */
  unpriced_models: z.array(z.string()),
});
export type RoleUsage = z.infer<typeof RoleUsageSchema>;

export const UsageByRoleSchema = z.object({
  agent: RoleUsageSchema,
  user: RoleUsageSchema,
  judge: RoleUsageSchema,
  retrieval: RoleUsageSchema,
  review: RoleUsageSchema,
});
export type UsageByRole = z.infer<typeof UsageByRoleSchema>;
