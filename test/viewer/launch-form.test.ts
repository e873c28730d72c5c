// The launch form's text as a run request: empty fields left to the API's defaults, task ids space-separated,
// numbers checked, and the field named when one is not a number.
import { describe, expect, it } from 'vitest';
import { LaunchFormSchema } from '../../src/viewer/launch-form.ts';

const blank = { domain: 'mock', task_ids: '', task_split_name: '', num_tasks: '', num_trials: '', llm_agent: '', llm_user: '', max_concurrency: '' };

describe('launch form', () => {
  it('leaves empty fields out, so the API applies its defaults', () => {
    expect(LaunchFormSchema.parse(blank)).toEqual({ domain: 'mock' });
  });

  it('splits task ids on whitespace and takes them over a number of tasks', () => {
    const request = LaunchFormSchema.parse({ ...blank, task_ids: ' create_task_1   update_task_1 ', num_tasks: '5', num_trials: '3' });
    expect(request).toEqual({ domain: 'mock', task_ids: ['create_task_1', 'update_task_1'], num_trials: 3 });
  });

  it('takes a split, a number of tasks, models and concurrency', () => {
    expect(LaunchFormSchema.parse({ ...blank, task_split_name: 'base', num_tasks: '2', llm_agent: 'a', llm_user: 'u', max_concurrency: '8' })).toEqual({
      domain: 'mock',
      num_tasks: 2,
      task_split_name: 'base',
      llm_agent: 'a',
      llm_user: 'u',
      max_concurrency: 8,
    });
  });

  it('names a field that is not a whole number', () => {
    const result = LaunchFormSchema.safeParse({ ...blank, num_trials: '2.5' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['num_trials', 'Give a whole number']]);
  });
});
