// Telecom agent tools through the production Environment: the reference's own tool tests
// (tests/test_domains/test_telecom/test_tools_telecom.py), the verified outputs F34–F44 and F71 of the spec's
// Appendix B, the tool schemas of Appendix A.3, and the non-tool methods tasks use.
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson, pyFloat, pyDictHash } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { domainToolTypes } from '../../../src/core/environment/domain.ts';
import { agent, agentDb, agentFunction, telecomEnv, user, userDb } from './helpers.ts';

const content = (message: { content: string | null }) => message.content!;
const json = (message: { content: string | null }) => parsePyJson(content(message)) as Record<string, PyValue>;

describe('reference tests: test_tools_telecom.py', () => {
  it('the DB loads with customers, lines, plans, devices and bills (and hashes as the reference DB does)', async () => {
    const env = await telecomEnv();
    const db = agentDb(env);
    expect([db.plans.length, db.customers.length, db.lines.length, db.bills.length, db.devices.length]).toEqual([5, 4, 9, 6, 9]);
    expect(pyDictHash(db as never)).toBe('304cf5ef059852e117ea801ab9a5efc24c9713ec887679dc2e30acceb4b6742d');
    expect(pyDictHash(userDb(env) as never)).toBe('e1f3a8637388808221228ff3f87294444e6b64caf721f5eb243a85d0a9380b28');
  });

  it.each(['555-123-2002', '555-123-2001'])('get_customer_by_phone(%s) finds C1001 by contact or line number', async (phone) => {
    const env = await telecomEnv();
    expect(json(agent(env, 'get_customer_by_phone', { phone_number: phone }))).toMatchObject({
      customer_id: 'C1001',
      full_name: 'John Smith',
    });
  });

  it('get_customer_by_phone of an unknown number is an error', async () => {
    const env = await telecomEnv();
    expect(agent(env, 'get_customer_by_phone', { phone_number: '555-9999' })).toMatchObject({
      error: true,
      content: 'Error: Customer with phone number 555-9999 not found',
    });
  });

  it('get_customer_by_id finds C1001; C9999 is an error', async () => {
    const env = await telecomEnv();
    expect(json(agent(env, 'get_customer_by_id', { customer_id: 'C1001' })).full_name).toBe('John Smith');
    expect(content(agent(env, 'get_customer_by_id', { customer_id: 'C9999' }))).toBe('Error: Customer with ID C9999 not found');
  });

  it('get_customer_by_name matches name (case-insensitively) and DOB; no match is an empty list', async () => {
    const env = await telecomEnv();
    const found = parsePyJson(content(agent(env, 'get_customer_by_name', { full_name: 'John Smith', dob: '1985-06-15' }))) as { customer_id: string }[];
    expect(found.map((c) => c.customer_id)).toEqual(['C1001']);
    expect(content(agent(env, 'get_customer_by_name', { full_name: 'Jane Doe', dob: '1980-01-01' }))).toBe('[]');
  });

  it('suspend_line suspends an active line and records the suspension date', async () => {
    const env = await telecomEnv();
    const result = json(agent(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L1001', reason: 'Customer request' }));
    expect(result.line).toMatchObject({ status: 'Suspended', suspension_start_date: '2025-02-25' });
  });

  it('suspend_line of an unknown line, or of an already suspended line, is an error', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L9999', reason: 'x' }))).toBe(
      'Error: Line L9999 not found for customer C1001',
    );
    expect(content(agent(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L1003', reason: 'x' }))).toBe(
      'Error: Line must be active to suspend',
    );
  });

  it('resume_line resumes a suspended line and clears its suspension date', async () => {
    const env = await telecomEnv();
    const result = json(agent(env, 'resume_line', { customer_id: 'C1001', line_id: 'L1003' }));
    expect(result.line).toMatchObject({ status: 'Active', suspension_start_date: null });
  });

  it('resume_line of an unknown line, or of an active line, is an error', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'resume_line', { customer_id: 'C1001', line_id: 'L9999' }))).toBe(
      'Error: Line L9999 not found for customer C1001',
    );
    expect(content(agent(env, 'resume_line', { customer_id: 'C1001', line_id: 'L1001' }))).toBe(
      'Error: Line must be suspended to resume',
    );
  });

  it("get_bills_for_customer lists the customer's bills, newest issue date first; unknown customer is an error", async () => {
    const env = await telecomEnv();
    const bills = parsePyJson(content(agent(env, 'get_bills_for_customer', { customer_id: 'C1001' }))) as { bill_id: string; customer_id: string; issue_date: string }[];
    expect(bills.map((b) => [b.bill_id, b.issue_date])).toEqual([
      ['B1003', '2025-03-01'],
      ['B1002', '2025-02-05'],
      ['B1001', '2025-01-05'],
    ]);
    expect(bills.every((b) => b.customer_id === 'C1001')).toBe(true);
    expect(content(agent(env, 'get_bills_for_customer', { customer_id: 'C9999' }))).toBe('Error: Customer with ID C9999 not found');
  });

  it('get_data_usage reports usage, limit, refuelling and the cycle end; an unknown line is an error', async () => {
    const env = await telecomEnv();
    expect(json(agent(env, 'get_data_usage', { customer_id: 'C1001', line_id: 'L1001' }))).toEqual({
      line_id: 'L1001',
      data_used_gb: '3.2',
      data_limit_gb: '5.0',
      data_refueling_gb: '0.0',
      cycle_end_date: '2025-02-28',
    });
    expect(agent(env, 'get_data_usage', { customer_id: 'C1001', line_id: 'L9999' }).error).toBe(true);
  });

  it('enable_roaming on L1001 (off) and disable_roaming on L1002 (on) succeed; an unknown line is an error', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'enable_roaming', { customer_id: 'C1001', line_id: 'L1001' }))).toBe('Roaming enabled successfully');
    expect(content(agent(env, 'disable_roaming', { customer_id: 'C1001', line_id: 'L1002' }))).toBe('Roaming disabled successfully');
    expect(content(agent(env, 'disable_roaming', { customer_id: 'C1001', line_id: 'L1002' }))).toBe('Roaming was already disabled');
    expect(agent(env, 'enable_roaming', { customer_id: 'C1001', line_id: 'L9999' }).error).toBe(true);
    expect(agent(env, 'disable_roaming', { customer_id: 'C1001', line_id: 'L9999' }).error).toBe(true);
  });

  it('refuel_data charges the plan rate (P1001: 5.0/GB), adds the GB and says "2.0 GB"; another customer\'s line is an error', async () => {
    const env = await telecomEnv();
    const result = json(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1001', gb_amount: pyFloat(2) }));
    expect(result).toEqual({
      message: 'Successfully added 2.0 GB of data for line L1001 for $10.00',
      new_data_refueling_gb: '2.0',
      charge: '10.0',
    });
    expect(content(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1004', gb_amount: pyFloat(2) }))).toBe(
      'Error: Line L1004 not found for customer C1001',
    );
  });

  it('transfer_to_human_agents answers "Transfer successful"', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'transfer_to_human_agents', { summary: 'Customer needs billing assistance' }))).toBe('Transfer successful');
  });
});

describe('verified outputs F34–F44, F71 (one environment, in order)', () => {
  it('renders models, plain dicts and lists exactly as the reference does', async () => {
    const env = await telecomEnv();
    const c1001 =
      '{"customer_id": "C1001", "full_name": "John Smith", "date_of_birth": "1985-06-15", "email": "john.smith@example.com", "phone_number": "555-123-2002", "address": {"street": "123 Main St", "city": "Anytown", "state": "CA", "zip_code": "90210"}, "account_status": "Active", "payment_methods": [{"method_type": "Credit Card", "account_number_last_4": "1235", "expiration_date": "12/2026"}], "line_ids": ["L1001", "L1002", "L1003"], "bill_ids": ["B1001", "B1002", "B1003"], "created_at": "2025-01-15 10:30:00", "last_extension_date": null, "goodwill_credit_used_this_year": 25.0}';
    const line = (status: string, refuel: string, suspended: string) =>
      `{"line_id": "L1002", "phone_number": "555-123-2002", "status": "${status}", "plan_id": "P1002", "device_id": "D1002", "data_used_gb": 8.7, "data_refueling_gb": ${refuel}, "roaming_enabled": true, "contract_end_date": "2026-12-31", "last_plan_change_date": "2024-12-15", "last_sim_replacement_date": "2025-01-20", "suspension_start_date": ${suspended}}`;
    const steps: [string, Record<string, PyValue>, boolean, string][] = [
      ['get_customer_by_phone', { phone_number: '555-123-2002' }, false, c1001],
      ['get_details_by_id', { id: 'L1002' }, false, line('Active', '0.0', 'null')],
      ['get_details_by_id', { id: 'X1' }, true, 'Error: Unknown ID format or type: X1'],
      ['get_data_usage', { customer_id: 'C1001', line_id: 'L1002' }, false, '{"line_id": "L1002", "data_used_gb": "8.7", "data_limit_gb": "15.0", "data_refueling_gb": "0.0", "cycle_end_date": "2025-02-28"}'],
      ['refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: 2 }, false, '{"message": "Successfully added 2 GB of data for line L1002 for $4.00", "new_data_refueling_gb": "2.0", "charge": "4.0"}'],
      ['enable_roaming', { customer_id: 'C1001', line_id: 'L1002' }, false, 'Roaming was already enabled'],
      ['enable_roaming', { customer_id: 'C1001', line_id: 'L1002' }, false, 'Roaming was already enabled'],
      ['suspend_line', { customer_id: 'C1001', line_id: 'L1002', reason: 'x' }, false, `{"message": "Line suspended successfully. $5/month holding fee will apply.", "line": ${line('Suspended', '2.0', '"2025-02-25"')}}`],
      ['resume_line', { customer_id: 'C1001', line_id: 'L1002' }, false, `{"message": "Line resumed successfully", "line": ${line('Active', '2.0', 'null')}}`],
      ['get_bills_for_customer', { customer_id: 'C1001', limit: 1 }, false, '[{"bill_id": "B1003", "customer_id": "C1001", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-03-01", "total_due": 4.0, "due_date": "2025-03-15", "line_items": [{"description": "Data refueling: 2 GB at $2.0/GB", "amount": 4.0, "date": "2025-02-25", "item_type": "Charge"}], "status": "Draft"}]'],
      ['get_customer_by_name', { full_name: 'john smith', dob: '1985-06-15' }, false, `[${c1001}]`],
    ];
    for (const [name, args, error, expected] of steps) {
      expect(agent(env, name, args), name).toMatchObject({ error, content: expected, requestor: 'assistant' });
    }
    expect(user(env, 'get_customer_by_phone', { phone_number: '555-123-2002' })).toMatchObject({
      error: true,
      content: "Error: Tool 'get_customer_by_phone' not found.",
      requestor: 'user',
    });
  });
});

describe('agent tool details', () => {
  it('registers the 13 tools of Appendix A.3 in order, with their types (only write tools are replayed)', async () => {
    const env = await telecomEnv();
    const types = domainToolTypes(env.domain);
    const names = env.toolSchemas().map((t) => t.function.name);
    expect(names.map((n) => [n, types[n]])).toEqual([
      ['get_customer_by_phone', 'read'], ['get_customer_by_id', 'read'], ['get_customer_by_name', 'read'],
      ['get_details_by_id', 'read'], ['suspend_line', 'write'], ['resume_line', 'write'],
      ['get_bills_for_customer', 'read'], ['send_payment_request', 'write'], ['get_data_usage', 'read'],
      ['enable_roaming', 'write'], ['disable_roaming', 'write'], ['transfer_to_human_agents', 'generic'],
      ['refuel_data', 'write'],
    ]);
    expect(names.filter((n) => env.isMutatingTool(n))).toEqual([
      'suspend_line', 'resume_line', 'send_payment_request', 'enable_roaming', 'disable_roaming', 'refuel_data',
    ]);
  });

  it('schemas are the reference ones (docstring-parser artefacts included)', async () => {
    const env = await telecomEnv();
    const byName = Object.fromEntries(env.toolSchemas().map((t) => [t.function.name, t]));
    expect(dumpsPy(byName.get_customer_by_name as never)).toBe(
      '{"type": "function", "function": {"name": "get_customer_by_name", "description": "Searches for customers by name and DOB. May return multiple matches if names are similar,\\n\\nDOB helps disambiguate.", "parameters": {"properties": {"full_name": {"description": "The full name of the customer.", "title": "Full Name", "type": "string"}, "dob": {"description": "Date of birth for verification, in the format YYYY-MM-DD.", "title": "Dob", "type": "string"}}, "required": ["full_name", "dob"], "title": "parameters", "type": "object"}}}',
    );
    expect(dumpsPy(byName.get_bills_for_customer as never)).toBe(
      '{"type": "function", "function": {"name": "get_bills_for_customer", "description": "Retrieves a list of the customer\'s bills, most recent first.", "parameters": {"properties": {"customer_id": {"description": "ID of the customer.", "title": "Customer Id", "type": "string"}, "limit": {"default": 12, "description": "Maximum number of bills to return.", "title": "Limit", "type": "integer"}}, "required": ["customer_id"], "title": "parameters", "type": "object"}}}',
    );
    expect(dumpsPy(byName.refuel_data as never)).toBe(
      '{"type": "function", "function": {"name": "refuel_data", "description": "Refuels data for a specific line, adding to the customer\'s bill.\\n\\nChecks: Line status must be Active, Customer owns the line.\\nLogic: Adds data to the line and charges customer based on the plan\'s refueling rate.", "parameters": {"properties": {"customer_id": {"description": "ID of the customer who owns the line.", "title": "Customer Id", "type": "string"}, "line_id": {"description": "ID of the line to refuel data for.", "title": "Line Id", "type": "string"}, "gb_amount": {"description": "Amount of data to add in gigabytes.", "title": "Gb Amount", "type": "number"}}, "required": ["customer_id", "line_id", "gb_amount"], "title": "parameters", "type": "object"}}}',
    );
  });

  it('get_details_by_id dispatches on the first letter: device, bill, plan, customer', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'get_details_by_id', { id: 'D1002' }))).toBe(
      '{"device_id": "D1002", "device_type": "phone", "model": "Smartphone Pro Max", "imei": "234567890123456", "is_esim_capable": true, "activated": true, "activation_date": "2025-02-15 11:45:00", "last_esim_transfer_date": "2025-01-20 09:30:00"}',
    );
    expect(content(agent(env, 'get_details_by_id', { id: 'P1005' }))).toBe(
      '{"plan_id": "P1005", "name": "IoT Basic", "data_limit_gb": 1.0, "price_per_month": 15.0, "data_refueling_price_per_gb": 10.0}',
    );
    expect(json(agent(env, 'get_details_by_id', { id: 'B1002' }))).toMatchObject({ bill_id: 'B1002', status: 'Issued' });
    expect(json(agent(env, 'get_details_by_id', { id: 'C1002' }))).toMatchObject({ full_name: 'Sarah Johnson' });
    expect(content(agent(env, 'get_details_by_id', { id: 'L0' }))).toBe('Error: Line with ID L0 not found');
    expect(content(agent(env, 'get_details_by_id', { id: 'D0' }))).toBe('Error: Device with ID D0 not found');
    expect(content(agent(env, 'get_details_by_id', { id: 'B0' }))).toBe('Error: Bill with ID B0 not found');
    expect(content(agent(env, 'get_details_by_id', { id: 'P0' }))).toBe('Error: Plan with ID P0 not found');
  });

  it('raw arguments reach the tools unvalidated and fail with CPython texts', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'get_details_by_id', { id: 7 }))).toBe("Error: 'int' object has no attribute 'startswith'");
    expect(content(agent(env, 'get_customer_by_name', { full_name: null, dob: 'x' }))).toBe(
      "Error: 'NoneType' object has no attribute 'lower'",
    );
    expect(content(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: '2' }))).toBe(
      "Error: '<=' not supported between instances of 'str' and 'int'",
    );
    expect(content(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: 0 }))).toBe(
      'Error: Refuel amount must be positive',
    );
    expect(content(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: false }))).toBe(
      'Error: Refuel amount must be positive',
    );
    expect(content(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: null }))).toBe(
      "Error: '<=' not supported between instances of 'NoneType' and 'int'",
    );
    expect(json(agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: true }))).toEqual({
      message: 'Successfully added True GB of data for line L1002 for $2.00',
      new_data_refueling_gb: '1.0',
      charge: '2.0',
    });
    expect(content(agent(env, 'get_bills_for_customer', { customer_id: 'C1001', limit: pyFloat(1) }))).toBe(
      'Error: slice indices must be integers or None or have an __index__ method',
    );
    const lastTwo = parsePyJson(content(agent(env, 'get_bills_for_customer', { customer_id: 'C1001', limit: -1 }))) as { bill_id: string }[];
    expect(lastTwo.map((b) => b.bill_id)).toEqual(['B1003', 'B1002']);
    expect(content(agent(env, 'suspend_line', { customer_id: 'C1001', line_id: 'L1002' }))).toBe(
      "Error: TelecomTools.suspend_line() missing 1 required positional argument: 'reason'",
    );
  });

  it('send_payment_request checks the customer, then pending requests, then bill ownership', async () => {
    const env = await telecomEnv();
    expect(content(agent(env, 'send_payment_request', { customer_id: 'C9', bill_id: 'B1002' }))).toBe('Error: Customer with ID C9 not found');
    expect(content(agent(env, 'send_payment_request', { customer_id: 'C1001', bill_id: 'B1004' }))).toBe(
      'Error: Bill B1004 not found for customer C1001',
    );
    expect(content(agent(env, 'send_payment_request', { customer_id: 'C1001', bill_id: 'B1002' }))).toBe(
      'Payment request sent to the customer for bill B1002',
    );
    expect(agentDb(env).bills.find((b) => b.bill_id === 'B1002')!.status).toBe('Awaiting Payment');
    expect(content(agent(env, 'send_payment_request', { customer_id: 'C1001', bill_id: 'B1001' }))).toBe(
      'Error: A bill is already awaiting payment for this customer',
    );
  });

  it('refuel_data for a customer without a Draft bill opens one for next month', async () => {
    const env = await telecomEnv();
    const customer = agentDb(env).customers.find((c) => c.customer_id === 'C1002')!;
    expect(customer.bill_ids.map((id) => agentDb(env).bills.find((b) => b.bill_id === id)!.status)).not.toContain('Draft');
    const result = json(agent(env, 'refuel_data', { customer_id: 'C1002', line_id: 'L1004', gb_amount: 3 }));
    expect(result).toEqual({ message: 'Successfully added 3 GB of data for line L1004 for $0.30', new_data_refueling_gb: '3.0', charge: '0.30000000000000004' });
    const db = agentDb(env);
    const billId = db.customers.find((c) => c.customer_id === 'C1002')!.bill_ids.at(-1)!;
    expect(billId).toMatch(/^B[0-9a-f]{8}$/);
    const bill = db.bills.at(-1)!;
    expect(dumpsPy({ ...bill, bill_id: 'new' } as never)).toBe(
      '{"bill_id": "new", "customer_id": "C1002", "period_start": "2025-03-01", "period_end": "2025-03-31", "issue_date": "2025-03-01", "total_due": 0.30000000000000004, "due_date": "2025-03-15", "line_items": [{"description": "Data refueling: 3 GB at $0.1/GB", "amount": 0.30000000000000004, "date": "2025-02-25", "item_type": "Charge"}], "status": "Draft"}',
    );
  });
});

describe('network-side set-up and assertion functions', () => {
  it('set_data_usage stores the raw value (an int stays an int)', async () => {
    const env = await telecomEnv();
    expect(agentFunction(env, 'set_data_usage', { customer_id: 'C1001', line_id: 'L1002', data_used_gb: 16 })).toBe(
      'Data usage set to 16 GB for line L1002',
    );
    expect(content(agent(env, 'get_data_usage', { customer_id: 'C1001', line_id: 'L1002' }))).toContain('"data_used_gb": "16"');
  });

  it('suspend_line_for_overdue_bill adds an Overdue bill for last month and suspends the line', async () => {
    const env = await telecomEnv();
    expect(
      agentFunction(env, 'suspend_line_for_overdue_bill', { customer_id: 'C1001', line_id: 'L1002', new_bill_id: 'B9', contract_ended: true }),
    ).toBe('Line L1002 suspended for unpaid bill B9. Contract ended: True');
    expect(content(agent(env, 'get_details_by_id', { id: 'B9' }))).toBe(
      '{"bill_id": "B9", "customer_id": "C1001", "period_start": "2025-01-01", "period_end": "2025-01-31", "issue_date": "2025-01-01", "total_due": 65.0, "due_date": "2025-01-15", "line_items": [{"description": "Charge for line L1002", "amount": 65.0, "date": "2025-02-25", "item_type": "Charge"}], "status": "Overdue"}',
    );
    expect(json(agent(env, 'get_details_by_id', { id: 'L1002' }))).toMatchObject({
      status: 'Suspended',
      suspension_start_date: '2025-02-25',
      contract_end_date: '2025-01-31',
    });
    expect(agentFunction(env, 'assert_overdue_bill_exists', { customer_id: 'C1001', overdue_bill_id: 'B9' })).toBe(true);
    expect(agentFunction(env, 'assert_no_overdue_bill', { overdue_bill_id: 'B9' })).toBe(false);
    expect(agentFunction(env, 'assert_no_overdue_bill', { overdue_bill_id: 'B404' })).toBe(true);
    expect(agentFunction(env, 'assert_line_status', { customer_id: 'C1001', line_id: 'L1002', expected_status: 'Suspended' })).toBe(true);
    expect(() =>
      agentFunction(env, 'suspend_line_for_overdue_bill', { customer_id: 'C1001', line_id: 'L1001', new_bill_id: 'B10', contract_ended: false }),
    ).toThrow('Customer already has an overdue bill');
  });

  it('assert_data_refueling_amount compares within 1e-6', async () => {
    const env = await telecomEnv();
    agent(env, 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: pyFloat(2.5) });
    const check = (expected: PyValue) =>
      agentFunction(env, 'assert_data_refueling_amount', { customer_id: 'C1001', line_id: 'L1002', expected_amount: expected });
    expect([check(pyFloat(2.5)), check(pyFloat(2.5000001)), check(pyFloat(2.50001)), check(2)]).toEqual([true, true, false, false]);
  });
});
