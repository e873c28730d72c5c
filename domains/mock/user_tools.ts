// Mock domain user tools: the user's notification inbox (reference: src/tau2/domains/mock/user_tools.py).
import { pyStr } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import { NotificationSchema } from './user_data_model.ts';
import type { MockUserDB } from './user_data_model.ts';

export const mockUserTools = defineToolkit<MockUserDB>({
  className: 'MockUserTools',
  tools: {
    check_notifications: {
      type: 'read',
      description: "Check all notifications in the user's inbox.",
      parameters: { properties: {}, title: 'parameters', type: 'object' },
      run: (db) => Object.values(db.notifications),
    },
    dismiss_notification: {
      type: 'write',
      description: 'Dismiss (mark as read) a notification.',
      parameters: {
        properties: {
          notification_id: {
            description: 'The ID of the notification to dismiss.',
            title: 'Notification Id',
            type: 'string',
          },
        },
        required: ['notification_id'],
        title: 'parameters',
        type: 'object',
      },
      run: (db, { notification_id }) => {
        if (!dictHas(db.notifications, notification_id)) {
          throw new ToolError(`Notification ${pyStr(notification_id)} not found`);
        }
        db.notifications[notification_id]!.status = 'read';
        return `Notification ${notification_id} dismissed`;
      },
    },
  },
  functions: {
    add_notification: {
      params: [
        { name: 'notification_id', hasDefault: false },
        { name: 'message', hasDefault: false },
        { name: 'task_id', hasDefault: true, default: null },
      ],
      run: (db, { notification_id, message, task_id }) => {
        const notification = constructModel('Notification', NotificationSchema, { notification_id, message, task_id });
        db.notifications[String(notification_id)] = notification;
        return notification;
      },
    },
    assert_notification_status: {
      params: [
        { name: 'notification_id', hasDefault: false },
        { name: 'expected_status', hasDefault: false },
      ],
      run: (db, { notification_id, expected_status }) => {
        if (!dictHas(db.notifications, notification_id)) {
          throw new ToolError(`Notification ${pyStr(notification_id)} not found`);
        }
        return db.notifications[notification_id]!.status === expected_status;
      },
    },
  },
});
