// Synchronisation between the network (agent DB) and the user's phone (user DB): what each side's tool calls
// change on the other, in the reference's order of effects; and the reference's gold DB hashes (Appendix C.3).
import { describe, expect, it } from 'vitest';
import { pyDictHash, pyFloat } from '../../../src/core/py/index.ts';
import { readDataFile } from '../../core/py/data-files.ts';
import { loaded } from '../../support/domains.ts';
import { agent, agentDb, agentFunction, editUserDb, telecomEnv, user, userDb, userFunction } from './helpers.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { playGoldRun } from '../../../src/core/evaluator/gold-run.ts';

/** A phone belonging to John Smith (line L1002), as every telecom task sets it up. */
const johnsPhone = async () => {
  const env = await telecomEnv();
  userFunction(env, 'set_user_info', { name: 'John Smith', phone_number: '555-123-2002' });
  return env;
};

describe('sync_tools', () => {
  it('does nothing until the phone has a number', async () => {
    const env = await telecomEnv();
    agent(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L1002', reason: 'x' });
    expect(userDb(env).surroundings).toMatchObject({ phone_number: null, line_active: true, roaming_allowed: false });
  });

  it('mirrors the line: active, roaming allowed, data limit not exceeded', async () => {
    const env = await johnsPhone();
    expect(userDb(env).surroundings).toMatchObject({
      name: 'John Smith',
      phone_number: '555-123-2002',
      line_active: true,
      roaming_allowed: true,
      mobile_data_usage_exceeded: false,
      payment_request: null,
    });
  });

  it('a suspended line shows on the phone only after its next network search', async () => {
    const env = await johnsPhone();
    agent(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L1002', reason: 'x' });
    expect(userDb(env).surroundings.line_active).toBe(false);
    expect(user(env, 'check_status_bar').content).toBe('Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔋 80%');
    expect(user(env, 'reboot_device').content).toBe('Restarting network services...\nStatus Bar: 📵 No Signal | 📵 Data Disabled | 🔋 80%');
    agent(env, 'resume_line', { customer_id: 'C1001', line_id: 'L1002' });
    expect(userDb(env).surroundings.line_active).toBe(true);
    expect(userDb(env).device.network_connection_status).toBe('no_service');
    expect(user(env, 'reboot_device').content).toBe(
      'Restarting network services...\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%',
    );
  });

  it('roaming: the line allowance and the phone setting must both be on for data abroad', async () => {
    const env = await johnsPhone();
    userFunction(env, 'set_user_location', { abroad: true });
    expect(user(env, 'run_speed_test').content).toBe('Speed test failed: No Connection.');
    // toggling roaming also searches the network again: 5G with excellent signal
    user(env, 'toggle_roaming');
    expect(user(env, 'run_speed_test').content).toContain('Speed Test Result: 275.00 Mbps');
    expect(agent(env, 'disable_roaming', { customer_id: 'C1001', line_id: 'L1002' }).content).toBe('Roaming disabled successfully');
    expect(userDb(env).surroundings.roaming_allowed).toBe(false);
    expect(userFunction(env, 'assert_mobile_data_status', { expected_status: false })).toBe(true);
    agent(env, 'enable_roaming', { customer_id: 'C1001', line_id: 'L1002' });
    expect(userFunction(env, 'assert_mobile_data_status', { expected_status: true })).toBe(true);
  });

  it('data usage over the plan limit stops mobile data until the line is refuelled', async () => {
    const env = await johnsPhone();
    agentFunction(env, 'set_data_usage', { customer_id: 'C1001', line_id: 'L1002', data_used_gb: pyFloat(15.1) });
    expect(userFunction(env, 'assert_mobile_data_usage_exceeded', { expected_status: true })).toBe(true);
    expect(user(env, 'run_speed_test').content).toBe('Speed test failed: No Connection.');
    agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: pyFloat(0.1) });
    // 15.1 >= 15.0 + 0.1 in floating point: still exceeded, as in the reference
    expect(userDb(env).surroundings.mobile_data_usage_exceeded).toBe(15.1 >= 15.0 + 0.1);
    agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: pyFloat(1) });
    expect(userDb(env).surroundings.mobile_data_usage_exceeded).toBe(false);
    expect(user(env, 'run_speed_test').content).toContain('Speed Test Result: 220.00 Mbps');
  });

  it('a payment request reaches the phone; paying it marks the bill Paid at the same call', async () => {
    const env = await johnsPhone();
    expect(user(env, 'check_payment_request').content).toBe('No payment request has been made.');
    agent(env, 'send_payment_request', { customer_id: 'C1001', bill_id: 'B1002' });
    const request = userDb(env).surroundings.payment_request!;
    expect(request).toMatchObject({ bill_id: 'B1002', paid: false });
    const amount = String(request.amount_due);
    expect(user(env, 'check_payment_request').content).toBe(`You have a payment request for bill B1002 of ${amount} USD.`);
    expect(user(env, 'make_payment').content).toBe(`Payment of ${amount} USD has been made for bill B1002.`);
    expect(userDb(env).surroundings.payment_request).toBeNull();
    expect(agentDb(env).bills.find((b) => b.bill_id === 'B1002')!.status).toBe('Paid');
    expect(user(env, 'make_payment').content).toBe('You do not have a payment request.');
  });

  it('the overdue-bill scenario: the new bill is requested with its total (Python float text), paid, then the line resumes', async () => {
    const env = await johnsPhone();
    agentFunction(env, 'suspend_line_for_overdue_bill', {
      customer_id: 'C1001', line_id: 'L1002', new_bill_id: 'B1234321', contract_ended: false,
    });
    userFunction(env, 'simulate_network_search');
    expect(userFunction(env, 'assert_service_status', { expected_status: 'no_service' })).toBe(true);
    expect(agentFunction(env, 'assert_no_overdue_bill', { overdue_bill_id: 'B1234321' })).toBe(false);
    agent(env, 'send_payment_request', { customer_id: 'C1001', bill_id: 'B1234321' });
    expect(user(env, 'check_payment_request').content).toBe('You have a payment request for bill B1234321 of 65.0 USD.');
    user(env, 'make_payment');
    expect(agentFunction(env, 'assert_no_overdue_bill', { overdue_bill_id: 'B1234321' })).toBe(true);
    agent(env, 'resume_line', { customer_id: 'C1001', line_id: 'L1002' });
    user(env, 'reboot_device');
    expect(userFunction(env, 'assert_service_status', { expected_status: 'connected' })).toBe(true);
  });

  it('synchronises after every successful tool call, and not after a failing one', async () => {
    const stale = editUserDb(await johnsPhone(), (db) => void (db.surroundings.line_active = false));
    expect(agent(stale, 'get_customer_by_id', { customer_id: 'C9' }).error).toBe(true);
    expect(userDb(stale).surroundings.line_active).toBe(false);
    expect(user(stale, 'check_sim_status').error).toBe(false);
    expect(userDb(stale).surroundings.line_active).toBe(true);
  });
});

describe('gold DB hashes of the 114 base tasks (reference Appendix C.3)', async () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const rows = readFileSync(path.join(here, '../../fixtures/telecom-gold-hashes.txt'), 'utf8').trim().split('\n');
  const { data } = await loaded('telecom');
  const split = new Set((JSON.parse(readDataFile('domains/telecom/split_tasks.json')) as { base: string[] }).base);

  it('lists exactly the base split', () => {
    expect(new Set(rows.map((r) => r.split(' ')[0]))).toEqual(split);
  });

  it.each(rows.map((r) => r.split(' ') as [string, string, string]))('%s', async (taskId, agentHash, userHash) => {
    const task = data.tasks.find((t) => t.id === taskId)!;
    const env = await telecomEnv();
    playGoldRun(env, task);
    expect([pyDictHash(agentDb(env) as never), pyDictHash(userDb(env) as never)]).toEqual([agentHash, userHash]);
  });
});
