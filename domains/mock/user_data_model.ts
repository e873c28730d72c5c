// Mock domain user-side DB: a notification inbox (reference: src/tau2/domains/mock/user_data_model.py).
import { z } from 'zod';
import { nullable } from '../../src/core/schemas/py-types.ts';

export const NotificationSchema = z.strictObject({
  notification_id: z.string(),
  message: z.string(),
  status: z.enum(['unread', 'read']).default('unread'),
  task_id: nullable(z.string()),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const MockUserDBSchema = z.object({
  notifications: z.record(z.string(), NotificationSchema).default({}),
});
export type MockUserDB = z.infer<typeof MockUserDBSchema>;
