// Mock domain agent tools, in the reference's registration order (reference: src/tau2/domains/mock/tools.py).
import { pyEquals, pyStr } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import { transferToHumanAgents } from '../../src/core/environment/common-tools.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { MockTaskSchema } from './data_model.ts';
import type { MockDB, MockTask } from './data_model.ts';

const getTask = (db: MockDB, taskId: PyValue | undefined): MockTask => {
  if (!dictHas(db.tasks, taskId)) throw new ToolError(`Task ${pyStr(taskId)} not found`);
  return db.tasks[taskId]!;
};

const requireUser = (db: MockDB, userId: PyValue | undefined): string => {
  if (!dictHas(db.users, userId)) throw new ToolError(`User ${pyStr(userId)} not found`);
  return userId;
};

export const mockTools = defineToolkit<MockDB>({
  className: 'MockTools',
  tools: {
    create_task: {
      type: 'write',
      description: 'Create a new task for a user.',
      parameters: {
        properties: {
          user_id: { description: 'The ID of the user creating the task', title: 'User Id', type: 'string' },
          title: { description: 'The title of the task', title: 'Title', type: 'string' },
          description: {
            default: null,
            description: 'Optional description of the task',
            title: 'Description',
            type: 'string',
          },
        },
        required: ['user_id', 'title'],
        title: 'parameters',
        type: 'object',
      },
      run: (db, { user_id, title, description }) => {
        const userId = requireUser(db, user_id);
        const taskId = `task_${Object.keys(db.tasks).length + 1}`;
        const task = constructModel('Task', MockTaskSchema, {
          task_id: taskId,
          title,
          description,
          status: 'pending',
        });
        db.tasks[taskId] = task;
        db.users[userId]!.tasks.push(taskId);
        return task;
      },
    },
    get_users: {
      type: 'read',
      description: 'Get all users in the database.',
      parameters: { properties: {}, title: 'parameters', type: 'object' },
      run: (db) => Object.values(db.users),
    },
    update_task_status: {
      type: 'write',
      description: 'Update the status of a task.',
      parameters: {
        properties: {
          task_id: { description: 'The ID of the task to update', title: 'Task Id', type: 'string' },
          status: {
            description: 'The new status of the task',
            enum: ['pending', 'completed'],
            title: 'Status',
            type: 'string',
          },
        },
        required: ['task_id', 'status'],
        title: 'parameters',
        type: 'object',
      },
      run: (db, { task_id, status }) => {
        const task = getTask(db, task_id);
        // Assigned unvalidated, as in the reference: any value the model sends is stored and hashed.
        (task as { status: PyValue }).status = status!;
        return task;
      },
    },
    transfer_to_human_agents: transferToHumanAgents,
  },
  functions: {
    assert_number_of_tasks: {
      params: [
        { name: 'user_id', hasDefault: false },
        { name: 'expected_number', hasDefault: false },
      ],
      run: (db, { user_id, expected_number }) =>
        pyEquals(db.users[requireUser(db, user_id)]!.tasks.length, expected_number!),
    },
    assert_task_status: {
      params: [
        { name: 'task_id', hasDefault: false },
        { name: 'expected_status', hasDefault: false },
      ],
      run: (db, { task_id, expected_status }) => getTask(db, task_id).status === expected_status,
    },
  },
});
