// Scheduled evaluations: the cron trigger launches each enabled schedule whose next_run_at has passed.
import { z } from 'zod';
import { RunConfigSchema, plainText } from '../core/schemas/run-config.ts';
import { pyNumber } from '../core/schemas/py-types.ts';
import { RunRequestSchema } from './runs.ts';

/** Longest interval between two launches of a schedule: a year. */
export const MAX_INTERVAL_MINUTES = 366 * 24 * 60;
const scheduleFields = {
  name: plainText().min(1),
  interval_minutes: pyNumber(z.number().int().positive().max(MAX_INTERVAL_MINUTES)),
  enabled: z.boolean(),
  // A scheduled launch has no request whose origin the a2a agent could be handed to reach its episodes over MCP.
  run: RunRequestSchema.refine((r) => r.agent !== 'a2a', { message: 'A schedule cannot launch the a2a agent: start its runs with POST /v1/runs', path: ['agent'] }),
};

export const ScheduleCreateSchema = z.strictObject({ ...scheduleFields, enabled: scheduleFields.enabled.default(true) });
export type ScheduleCreate = z.input<typeof ScheduleCreateSchema>;

export const ScheduleUpdateSchema = z
  .strictObject(scheduleFields)
  .partial()
  .refine((u) => Object.keys(u).length > 0, { message: 'Give at least one field to change' });
export type ScheduleUpdate = z.input<typeof ScheduleUpdateSchema>;

export const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  interval_minutes: z.number().int().positive(),
  enabled: z.boolean(),
  run: RunConfigSchema,
  next_run_at: z.string(),
  last_run_at: z.string().nullable(),
  last_run_id: z.string().nullable(),
  /** Why the last launch failed (the schedule stays enabled and is tried again at its next time); null after a launch. */
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleListSchema = z.object({ schedules: z.array(ScheduleSchema) });
