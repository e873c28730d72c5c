// What the local runtime (runtime.ts) is told on its standard input once the caller knows it.
import { z } from 'zod';

export const RuntimeSettingsSchema = z.object({
  /** Durable Object and D1 state. */
  persist_to: z.string(),
  port: z.number().int(),
  inspector_port: z.number().int().optional(),
  /** Where a tail Worker posts each invocation's limit-counted calls (`npm run limits`). */
  limits_trace: z.string().optional(),
  /** The Worker's variables and secrets. */
  vars: z.record(z.string(), z.string()),
});
export type RuntimeSettings = z.infer<typeof RuntimeSettingsSchema>;
