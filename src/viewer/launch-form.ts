// The launch and schedule forms' fields as a run configuration (and a schedule): empty fields are left to the
// API's defaults, task ids are space-separated. The API validates the configuration itself; this only turns
// form text into its types.
import { z } from 'zod';
import type { RunRequest, ScheduleCreate } from '../api/index.ts';

const text = z.string().trim().max(4096);
/** A field left empty, or not on the form at all, is left out. */
const optionalText = text.optional().transform((v) => (v ? v : undefined));
const optionalInt = optionalText.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: 'custom', message: 'Give a whole number' });
    return z.NEVER;
  }
  return n;
});

const runFields = {
  domain: text,
  task_ids: optionalText,
  task_split_name: optionalText,
  num_tasks: optionalInt,
  num_trials: optionalInt,
  llm_agent: optionalText,
  llm_user: optionalText,
  max_concurrency: optionalInt,
};

type RunFields = z.infer<z.ZodObject<typeof runFields>>;

const runRequest = (f: RunFields): RunRequest => {
  const request: Record<string, unknown> = { domain: f.domain };
  if (f.task_ids !== undefined) request['task_ids'] = f.task_ids.split(/\s+/);
  else if (f.num_tasks !== undefined) request['num_tasks'] = f.num_tasks;
  if (f.task_split_name !== undefined) request['task_split_name'] = f.task_split_name;
  for (const key of ['num_trials', 'llm_agent', 'llm_user', 'max_concurrency'] as const) {
    if (f[key] !== undefined) request[key] = f[key];
  }
  return request as RunRequest;
};

export const LaunchFormSchema = z.object(runFields).transform(runRequest);

/** A new schedule: its name, interval and state, and the run it launches. */
export const ScheduleFormSchema = z
  .object({
    ...runFields,
    name: text,
    interval_minutes: optionalInt,
    /** A checkbox: present when ticked. */
    enabled: z.string().optional(),
  })
  .transform(
    ({ name, interval_minutes, enabled, ...run }) =>
      ({ name, ...(interval_minutes === undefined ? {} : { interval_minutes }), enabled: enabled !== undefined, run: runRequest(run) }) as ScheduleCreate,
  );
