// Mock domain DB model (reference: src/tau2/domains/mock/data_model.py).
import { z } from 'zod';
import { nullable } from '../../src/core/schemas/py-types.ts';

export const TaskStatusSchema = z.enum(['pending', 'completed']);

export const MockTaskSchema = z.object({
  task_id: z.string(),
  title: z.string(),
  description: nullable(z.string()),
  status: TaskStatusSchema,
});
export type MockTask = z.infer<typeof MockTaskSchema>;

export const MockUserSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  tasks: z.array(z.string()),
});

export const MockDBSchema = z.object({
  tasks: z.record(z.string(), MockTaskSchema),
  users: z.record(z.string(), MockUserSchema),
});
export type MockDB = z.infer<typeof MockDBSchema>;
