// Telecom agent tools: customers, lines, bills, roaming and data refuelling, in the reference's registration
// order, plus the non-tool methods tasks call to set up and check the network side
// (reference: src/tau2/domains/telecom/tools.py).
import { PyFloat, add, formatFixed, mul, pyStr, sub, toNumber } from '../../src/core/py/index.ts';
import type { PyNumber, PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import type { ToolParameters } from '../../src/core/llm/tool-schema.ts';
import { transferToHumanAgents } from '../../src/core/environment/common-tools.ts';
import { pyDict } from '../../src/core/environment/serialize.ts';
import { BillSchema, LineItemSchema } from './data_model.ts';
import type { Bill, TelecomDB } from './data_model.ts';
import { TODAY, addDays, firstOfMonth } from './dates.ts';
import {
  getBillById,
  getCustomerById,
  getCustomerByPhone,
  getDeviceById,
  getLineById,
  getPlanById,
  getTargetLine,
  billsAwaitingPayment,
} from './lookups.ts';
import { requireComparableNumber, requireStr, sliceEnd, truthy } from '../../src/core/environment/python-args.ts';

const str = (title: string, description: string) => ({ description, title, type: 'string' });
const CUSTOMER_ID = 'ID of the customer who owns the line.';

const params = (properties: ToolParameters['properties'], required: readonly string[]): ToolParameters => ({
  properties,
  required,
  title: 'parameters',
  type: 'object',
});

const lineParams = (lineDescription: string): ToolParameters =>
  params(
    { customer_id: str('Customer Id', CUSTOMER_ID), line_id: str('Line Id', lineDescription) },
    ['customer_id', 'line_id'],
  );

/** `_apply_one_time_charge`: a line item on the customer's first Draft bill, creating one for next month. */
const applyOneTimeCharge = (db: TelecomDB, customerId: PyValue | undefined, amount: PyFloat, description: string): void => {
  const customer = getCustomerById(db, customerId);
  let draft = customer.bill_ids.map((id) => getBillById(db, id)).find((b) => b.status === 'Draft');
  if (!draft) {
    const start = firstOfMonth(TODAY, 1);
    // A random id, as the reference's uuid4-based one (no benchmark task reaches this: C1001 has a Draft bill).
    const billId = `B${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;
    const created: Bill = BillSchema.parse({
      bill_id: billId,
      customer_id: customerId,
      period_start: start,
      period_end: addDays(firstOfMonth(start, 1), -1),
      issue_date: start,
      total_due: 0,
      due_date: addDays(start, 14),
      status: 'Draft',
    });
    db.bills.push(created);
    customer.bill_ids.push(billId);
    draft = db.bills[db.bills.length - 1]!;
  }
  draft.line_items.push(
    LineItemSchema.parse({ description, amount, date: TODAY, item_type: amount.value < 0 ? 'Credit' : 'Charge' }),
  );
  draft.total_due = add(draft.total_due, amount) as PyFloat;
};

export const telecomTools = defineToolkit<TelecomDB>({
  className: 'TelecomTools',
  tools: {
    get_customer_by_phone: {
      type: 'read',
      description: 'Finds a customer by their primary contact or line phone number.',
      parameters: params({ phone_number: str('Phone Number', 'The phone number to search for.') }, ['phone_number']),
      run: (db, { phone_number }) => getCustomerByPhone(db, phone_number),
    },
    get_customer_by_id: {
      type: 'read',
      description: 'Retrieves a customer directly by their unique ID.',
      parameters: params({ customer_id: str('Customer Id', 'The unique identifier of the customer.') }, ['customer_id']),
      run: (db, { customer_id }) => getCustomerById(db, customer_id),
    },
    get_customer_by_name: {
      type: 'read',
      description:
        'Searches for customers by name and DOB. May return multiple matches if names are similar,\n\nDOB helps disambiguate.',
      parameters: params(
        {
          full_name: str('Full Name', 'The full name of the customer.'),
          dob: str('Dob', 'Date of birth for verification, in the format YYYY-MM-DD.'),
        },
        ['full_name', 'dob'],
      ),
      run: (db, { full_name, dob }) =>
        db.customers.filter(
          (c) => c.full_name.toLowerCase() === requireStr(full_name, 'lower').toLowerCase() && c.date_of_birth === dob,
        ),
    },
    get_details_by_id: {
      type: 'read',
      description:
        'Retrieves the details for a given ID.\n\nThe ID must be a valid ID for a Customer, Line, Device, Bill, or Plan.',
      parameters: params({ id: str('Id', 'The ID of the object to retrieve.') }, ['id']),
      run: (db, { id }) => {
        const text = requireStr(id, 'startswith');
        if (text.startsWith('L')) return getLineById(db, text);
        if (text.startsWith('D')) return getDeviceById(db, text);
        if (text.startsWith('B')) return getBillById(db, text);
        if (text.startsWith('C')) return getCustomerById(db, text);
        if (text.startsWith('P')) return getPlanById(db, text);
        throw new ToolError(`Unknown ID format or type: ${text}`);
      },
    },
    suspend_line: {
      type: 'write',
      description:
        'Suspends a specific line (max 6 months).\n\nChecks: Line status must be Active.\nLogic: Sets line status to Suspended, records suspension_start_date.',
      parameters: params(
        {
          customer_id: str('Customer Id', CUSTOMER_ID),
          line_id: str('Line Id', 'ID of the line to suspend.'),
          reason: str('Reason', 'Reason for suspension.'),
        },
        ['customer_id', 'line_id', 'reason'],
      ),
      run: (db, { customer_id, line_id }) => {
        const line = getTargetLine(db, customer_id, line_id);
        if (line.status !== 'Active') throw new ToolError('Line must be active to suspend');
        line.status = 'Suspended';
        line.suspension_start_date = TODAY;
        return pyDict({ message: 'Line suspended successfully. $5/month holding fee will apply.', line });
      },
    },
    resume_line: {
      type: 'write',
      description:
        'Resumes a suspended line.\n\nChecks: Line status must be Suspended or Pending Activation.\nLogic: Sets line status to Active, clears suspension_start_date.',
      parameters: lineParams('ID of the line to resume.'),
      run: (db, { customer_id, line_id }) => {
        const line = getTargetLine(db, customer_id, line_id);
        if (line.status !== 'Suspended' && line.status !== 'Pending Activation') {
          throw new ToolError('Line must be suspended to resume');
        }
        line.status = 'Active';
        line.suspension_start_date = null;
        return pyDict({ message: 'Line resumed successfully', line });
      },
    },
    get_bills_for_customer: {
      type: 'read',
      description: "Retrieves a list of the customer's bills, most recent first.",
      parameters: params(
        {
          customer_id: str('Customer Id', 'ID of the customer.'),
          limit: { default: 12, description: 'Maximum number of bills to return.', title: 'Limit', type: 'integer' },
        },
        ['customer_id'],
      ),
      run: (db, { customer_id, limit }) => {
        const customer = getCustomerById(db, customer_id);
        const bills = customer.bill_ids.map((id) => getBillById(db, id));
        // Newest issue date first; Python's sort is stable under reverse=True, and ISO dates order as text.
        const sorted = [...bills].sort((a, b) => (a.issue_date < b.issue_date ? 1 : a.issue_date > b.issue_date ? -1 : 0));
        return sorted.slice(0, sliceEnd(sorted.length, limit));
      },
    },
    send_payment_request: {
      type: 'write',
      description:
        'Sends a payment request to the customer for a specific bill.\n\nChecks:\n    - Customer exists\n    - Bill exists and belongs to the customer\n    - No other bills are already awaiting payment for this customer\nLogic: Sets bill status to AWAITING_PAYMENT and notifies customer.\nWarning: This method does not check if the bill is already PAID.\nAlways check the bill status before calling this method.',
      parameters: params(
        {
          customer_id: str('Customer Id', 'ID of the customer who owns the bill.'),
          bill_id: str('Bill Id', 'ID of the bill to send payment request for.'),
        },
        ['customer_id', 'bill_id'],
      ),
      run: (db, { customer_id, bill_id }) => {
        const customer = getCustomerById(db, customer_id);
        if (billsAwaitingPayment(db, customer).length !== 0) {
          throw new ToolError('A bill is already awaiting payment for this customer');
        }
        if (typeof bill_id !== 'string' || !customer.bill_ids.includes(bill_id)) {
          throw new ToolError(`Bill ${pyStr(bill_id)} not found for customer ${pyStr(customer_id)}`);
        }
        const bill = getBillById(db, bill_id);
        bill.status = 'Awaiting Payment';
        return `Payment request sent to the customer for bill ${bill.bill_id}`;
      },
    },
    get_data_usage: {
      type: 'read',
      description:
        'Retrieves current billing cycle data usage for a line, including data\n\nrefueling amount, data limit, and cycle end date.',
      parameters: lineParams('ID of the line to check usage for.'),
      run: (db, { customer_id, line_id }) => {
        const line = getTargetLine(db, customer_id, line_id);
        const plan = getPlanById(db, line.plan_id);
        return pyDict({
          line_id: line_id!,
          data_used_gb: line.data_used_gb,
          data_limit_gb: plan.data_limit_gb,
          data_refueling_gb: line.data_refueling_gb,
          cycle_end_date: addDays(firstOfMonth(TODAY, 1), -1),
        });
      },
    },
    enable_roaming: {
      type: 'write',
      description: 'Enables international roaming on a line.',
      parameters: lineParams('ID of the line to enable roaming for.'),
      run: (db, { customer_id, line_id }) => {
        const line = getTargetLine(db, customer_id, line_id);
        if (line.roaming_enabled) return 'Roaming was already enabled';
        line.roaming_enabled = true;
        return 'Roaming enabled successfully';
      },
    },
    disable_roaming: {
      type: 'write',
      description: 'Disables international roaming on a line.',
      parameters: lineParams('ID of the line to disable roaming for.'),
      run: (db, { customer_id, line_id }) => {
        const line = getTargetLine(db, customer_id, line_id);
        if (!line.roaming_enabled) return 'Roaming was already disabled';
        line.roaming_enabled = false;
        return 'Roaming disabled successfully';
      },
    },
    transfer_to_human_agents: transferToHumanAgents,
    refuel_data: {
      type: 'write',
      description:
        "Refuels data for a specific line, adding to the customer's bill.\n\nChecks: Line status must be Active, Customer owns the line.\nLogic: Adds data to the line and charges customer based on the plan's refueling rate.",
      parameters: params(
        {
          customer_id: str('Customer Id', CUSTOMER_ID),
          line_id: str('Line Id', 'ID of the line to refuel data for.'),
          gb_amount: { description: 'Amount of data to add in gigabytes.', title: 'Gb Amount', type: 'number' },
        },
        ['customer_id', 'line_id', 'gb_amount'],
      ),
      run: (db, { customer_id, line_id, gb_amount }) => {
        const line = getTargetLine(db, customer_id, line_id);
        // No line-status check: the reference has it commented out.
        const amount = requireComparableNumber(gb_amount, '<=');
        if (toNumber(amount) <= 0) throw new ToolError('Refuel amount must be positive');
        const plan = getPlanById(db, line.plan_id);
        const price = plan.data_refueling_price_per_gb;
        const charge = mul(amount, price) as PyFloat;
        line.data_refueling_gb = add(line.data_refueling_gb, amount) as PyFloat;
        applyOneTimeCharge(db, customer_id, charge, `Data refueling: ${pyStr(amount)} GB at $${pyStr(price)}/GB`);
        return pyDict({
          message: `Successfully added ${pyStr(amount)} GB of data for line ${pyStr(line_id)} for $${formatFixed(charge, 2)}`,
          new_data_refueling_gb: line.data_refueling_gb,
          charge,
        });
      },
    },
  },
  functions: {
    get_available_plan_ids: {
      params: [],
      run: (db) => db.plans.map((p) => p.plan_id),
    },
    set_data_usage: {
      params: [
        { name: 'customer_id', hasDefault: false },
        { name: 'line_id', hasDefault: false },
        { name: 'data_used_gb', hasDefault: false },
      ],
      run: (db, { customer_id, line_id, data_used_gb }) => {
        const line = getTargetLine(db, customer_id, line_id);
        // Assigned unvalidated, as in the reference: an int stays an int.
        (line as { data_used_gb: PyValue }).data_used_gb = data_used_gb!;
        return `Data usage set to ${pyStr(data_used_gb)} GB for line ${pyStr(line_id)}`;
      },
    },
    suspend_line_for_overdue_bill: {
      params: [
        { name: 'customer_id', hasDefault: false },
        { name: 'line_id', hasDefault: false },
        { name: 'new_bill_id', hasDefault: false },
        { name: 'contract_ended', hasDefault: false },
      ],
      run: (db, { customer_id, line_id, new_bill_id, contract_ended }) => {
        const line = getLineById(db, line_id);
        if (line.status !== 'Active') throw new ToolError('Line must be active to suspend for unpaid bill');
        const amount = getPlanById(db, line.plan_id).price_per_month;
        if (amount.value <= 0) throw new ToolError('Amount must be positive for overdue bill');
        const customer = getCustomerById(db, customer_id);
        if (customer.bill_ids.some((id) => getBillById(db, id).status === 'Overdue')) {
          throw new ToolError('Customer already has an overdue bill');
        }
        const periodStart = firstOfMonth(TODAY, -1);
        const periodEnd = addDays(firstOfMonth(TODAY), -1);
        const bill = constructModel('Bill', BillSchema, {
          bill_id: new_bill_id,
          customer_id,
          period_start: periodStart,
          period_end: periodEnd,
          issue_date: periodStart,
          total_due: 0,
          due_date: addDays(periodStart, 14),
          status: 'Overdue',
        });
        bill.line_items.push(
          LineItemSchema.parse({
            description: `Charge for line ${line.line_id}`,
            amount,
            date: TODAY,
            item_type: amount.value > 0 ? 'Charge' : 'Credit',
          }),
        );
        bill.total_due = add(bill.total_due, amount) as PyFloat;
        db.bills.push(bill);
        customer.bill_ids.push(bill.bill_id);
        line.status = 'Suspended';
        line.suspension_start_date = TODAY;
        if (truthy(contract_ended)) line.contract_end_date = periodEnd;
        return `Line ${pyStr(line_id)} suspended for unpaid bill ${pyStr(new_bill_id)}. Contract ended: ${pyStr(contract_ended)}`;
      },
    },
    assert_data_refueling_amount: {
      params: [
        { name: 'customer_id', hasDefault: false },
        { name: 'line_id', hasDefault: false },
        { name: 'expected_amount', hasDefault: false },
      ],
      run: (db, { customer_id, line_id, expected_amount }) => {
        const line = getTargetLine(db, customer_id, line_id);
        return Math.abs(toNumber(sub(line.data_refueling_gb, expected_amount as PyNumber))) < 1e-6;
      },
    },
    assert_line_status: {
      params: [
        { name: 'customer_id', hasDefault: false },
        { name: 'line_id', hasDefault: false },
        { name: 'expected_status', hasDefault: false },
      ],
      run: (db, { customer_id, line_id, expected_status }) =>
        getTargetLine(db, customer_id, line_id).status === expected_status,
    },
    assert_overdue_bill_exists: {
      params: [
        { name: 'customer_id', hasDefault: false },
        { name: 'overdue_bill_id', hasDefault: false },
      ],
      run: (db, { customer_id, overdue_bill_id }) => {
        const customer = getCustomerById(db, customer_id);
        if (typeof overdue_bill_id !== 'string' || !customer.bill_ids.includes(overdue_bill_id)) {
          throw new ToolError(`Overdue bill ${pyStr(overdue_bill_id)} not found`);
        }
        if (getBillById(db, overdue_bill_id).status !== 'Overdue') {
          throw new ToolError(`Overdue bill ${overdue_bill_id} is not overdue`);
        }
        return true;
      },
    },
    assert_no_overdue_bill: {
      params: [{ name: 'overdue_bill_id', hasDefault: false }],
      run: (db, { overdue_bill_id }) => {
        const bill = db.bills.find((b) => b.bill_id === overdue_bill_id);
        return bill === undefined || bill.status === 'Paid';
      },
    },
  },
});
