// Mock domain tools: the reference's own tool tests, the verified tool outputs and the DB hashes.
import { describe, expect, it } from 'vitest';
import { newEnvironment, loaded } from '../../support/domains.ts';
import { pyDictHash } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { ToolCall } from '../../../src/core/schemas/message.ts';
import { playGoldRun } from '../../../src/core/evaluator/gold-run.ts';

const call = (name: string, args: Record<string, PyValue>, requestor: 'user' | 'assistant' = 'assistant'): ToolCall => ({
  id: 'c1',
  name,
  arguments: args,
  requestor,
});

describe('mock agent tools', () => {
  it('create_task adds task_2 as pending and assigns it to the user', async () => {
    const env = await newEnvironment('mock');
    const msg = env.getResponse(call('create_task', { user_id: 'user_1', title: 'New task', description: 'A new test task' }));
    expect(msg.error).toBe(false);
    const db = env.agentDb as { tasks: Record<string, { status: string }>; users: Record<string, { tasks: string[] }> };
    expect(db.tasks.task_2!.status).toBe('pending');
    expect(db.users.user_1!.tasks).toEqual(['task_1', 'task_2']);
  });

  it("create_task for an unknown user → 'Error: User nobody not found'", async () => {
    const env = await newEnvironment('mock');
    const msg = env.getResponse(call('create_task', { user_id: 'nobody', title: 'T' }));
    expect(msg).toMatchObject({ error: true, content: 'Error: User nobody not found' });
  });

  it('update_task_status completes a task; an unknown task is an error', async () => {
    const env = await newEnvironment('mock');
    const ok = env.getResponse(call('update_task_status', { task_id: 'task_1', status: 'completed' }));
    expect(ok.content).toBe('{"task_id": "task_1", "title": "Test task", "description": "A test task", "status": "completed"}');
    const bad = env.getResponse(call('update_task_status', { task_id: 'task_9', status: 'completed' }));
    expect(bad).toMatchObject({ error: true, content: 'Error: Task task_9 not found' });
  });

  it('get_users renders models with Python json.dumps (F72)', async () => {
    const env = await newEnvironment('mock');
    expect(env.getResponse(call('get_users', {})).content).toBe(
      '[{"user_id": "user_1", "name": "Test User", "tasks": ["task_1"]}]',
    );
  });

  it('create_task without a description serializes it as null (F73)', async () => {
    const env = await newEnvironment('mock');
    expect(env.getResponse(call('create_task', { user_id: 'user_1', title: 'T' })).content).toBe(
      '{"task_id": "task_2", "title": "T", "description": null, "status": "pending"}',
    );
  });

  it('transfer_to_human_agents answers "Transfer successful" and changes nothing', async () => {
    const env = await newEnvironment('mock');
    const before = env.agentDb;
    expect(env.getResponse(call('transfer_to_human_agents', { summary: 'x' })).content).toBe('Transfer successful');
    expect(env.agentDb).toBe(before);
  });
});

describe('mock user tools', () => {
  it('check_notifications lists the inbox (F74)', async () => {
    const env = await newEnvironment('mock');
    expect(env.getResponse(call('check_notifications', {}, 'user')).content).toBe(
      '[{"notification_id": "notif_1", "message": "Task \'Test task\' has been assigned to you.", "status": "unread", "task_id": "task_1"}]',
    );
  });

  it("dismiss_notification of an unknown id → 'Error: Notification nope not found' (F75)", async () => {
    const env = await newEnvironment('mock');
    expect(env.getResponse(call('dismiss_notification', { notification_id: 'nope' }, 'user'))).toMatchObject({
      error: true,
      content: 'Error: Notification nope not found',
    });
  });

  it('add_notification through an env function call, then dismiss marks it read', async () => {
    const env = await newEnvironment('mock');
    env.runEnvFunctionCall({ env_type: 'user', func_name: 'add_notification', arguments: { notification_id: 'n2', message: 'hi' } });
    expect(env.getResponse(call('check_notifications', {}, 'user')).content).toContain('"notification_id": "n2"');
    const msg = env.getResponse(call('dismiss_notification', { notification_id: 'n2' }, 'user'));
    expect(msg.content).toContain('dismissed');
    expect((env.userDb as { notifications: Record<string, { status: string }> }).notifications.n2!.status).toBe('read');
  });

  it('requestors are isolated: a user calling an agent tool gets "Tool \'x\' not found."', async () => {
    const env = await newEnvironment('mock');
    expect(env.getResponse(call('get_users', {}, 'user')).content).toBe("Error: Tool 'get_users' not found.");
    expect(env.getResponse(call('check_notifications', {})).content).toBe("Error: Tool 'check_notifications' not found.");
  });
});

describe('mock DB hashes (reference get_dict_hash)', () => {
  it('the fresh DBs hash to the reference values', async () => {
    const env = await newEnvironment('mock');
    expect(pyDictHash(env.agentDb as PyValue)).toBe('107f83a70b7bf4f616e283b0b0b8451346fe7681173398d4498a1ec15c5fdfc6');
    expect(pyDictHash(env.userDb as PyValue)).toBe('4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac');
  });

  const gold: Record<string, [string, string]> = {
    create_task_1: ['3b82583d5c026d816c5a32430fb3ab8d42b72ec2b91cd5cafaab817e0e05b00c', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    create_task_1_with_env_assertions: ['3b82583d5c026d816c5a32430fb3ab8d42b72ec2b91cd5cafaab817e0e05b00c', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    create_task_1_nl_eval: ['107f83a70b7bf4f616e283b0b0b8451346fe7681173398d4498a1ec15c5fdfc6', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    update_task_1: ['b1f6b69753e521e81879e1da10df1e641e6d749b9eb2b69669f643d179e2e548', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    update_task_with_message_history: ['4d5107245dad773859cda42b0ebf480572ab67dfbc6c91850b9d0e4f982ded17', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    update_task_with_initialization_data: ['4d5107245dad773859cda42b0ebf480572ab67dfbc6c91850b9d0e4f982ded17', '4d5107245dad773859cda42b0ebf480572ab67dfbc6c91850b9d0e4f982ded17'],
    update_task_with_initialization_actions: ['4d5107245dad773859cda42b0ebf480572ab67dfbc6c91850b9d0e4f982ded17', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    update_task_with_history_and_env_assertions: ['7229fa1c72600a794b787e13dee3b9b9d517fef8a4f9d8c63be7c5f561b890f1', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    update_task_with_user_tools: ['b1f6b69753e521e81879e1da10df1e641e6d749b9eb2b69669f643d179e2e548', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
    impossible_task_1: ['107f83a70b7bf4f616e283b0b0b8451346fe7681173398d4498a1ec15c5fdfc6', '4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac'],
  };

  it.each(Object.entries(gold))('gold DBs of %s hash to the reference values', async (taskId, [agentHash, userHash]) => {
    const { data } = await loaded('mock');
    const task = data.tasks.find((t) => t.id === taskId)!;
    const env = await newEnvironment('mock');
    playGoldRun(env, task);
    expect([pyDictHash(env.agentDb as PyValue), pyDictHash(env.userDb as PyValue)]).toEqual([agentHash, userHash]);
  });
});
