// The HTTP API's shared parts: its prefix, the idempotency header, the health body.
import { z } from 'zod';

export const API_PREFIX = '/v1';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

export const HealthSchema = z.object({
  status: z.literal('ok'),
  commit: z.string().describe('The commit this Worker was deployed from (its GIT_COMMIT var; "unknown" when not set)'),
});

/** A count of things (episodes, calls, simulations). */
export const count = z.number().int().nonnegative();
