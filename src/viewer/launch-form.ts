// The launch form's fields as a run configuration: empty fields are left to the API's defaults, task ids are
// space-separated. The API validates the configuration itself; this only turns form text into its types.
import { z } from 'zod';
import type { RunRequest } from '../core/schemas/api.ts';

const text = z.string().trim().max(4096);
const optionalText = text.transform((v) => (v === '' ? undefined : v));
const optionalInt = text.transform((v, ctx) => {
  if (v === '') return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: 'custom', message: 'Give a whole number' });
    return z.NEVER;
  }
  return n;
});

export const LaunchFormSchema = z
  .object({
    domain: text,
    task_ids: optionalText,
    task_split_name: optionalText,
    num_tasks: optionalInt,
    num_trials: optionalInt,
    llm_agent: optionalText,
    llm_user: optionalText,
    max_concurrency: optionalInt,
  })
  .transform((f): RunRequest => {
    const request: Record<string, unknown> = { domain: f.domain };
    if (f.task_ids !== undefined) request['task_ids'] = f.task_ids.split(/\s+/);
    else if (f.num_tasks !== undefined) request['num_tasks'] = f.num_tasks;
    if (f.task_split_name !== undefined) request['task_split_name'] = f.task_split_name;
    for (const key of ['num_trials', 'llm_agent', 'llm_user', 'max_concurrency'] as const) {
      if (f[key] !== undefined) request[key] = f[key];
    }
    return request as RunRequest;
  });
