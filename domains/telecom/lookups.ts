// Lookups in the telecom DB shared by the agent tools and the device/network synchronisation, each raising
// the reference's exact error text (reference: the private helpers of TelecomTools).
import { pyStr } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import type { Bill, Customer, Line, Plan, TelecomDB } from './data_model.ts';

type Id = PyValue | undefined;

const findOr = <T>(items: readonly T[], match: (item: T) => boolean, message: string): T => {
  const found = items.find(match);
  if (found === undefined) throw new ToolError(message);
  return found;
};

export const getLineById = (db: TelecomDB, lineId: Id): Line =>
  findOr(db.lines, (l) => l.line_id === lineId, `Line with ID ${pyStr(lineId)} not found`);

export const getLineByPhone = (db: TelecomDB, phone: Id): Line =>
  findOr(db.lines, (l) => l.phone_number === phone, `Line with phone number ${pyStr(phone)} not found`);

export const getPlanById = (db: TelecomDB, planId: Id): Plan =>
  findOr(db.plans, (p) => p.plan_id === planId, `Plan with ID ${pyStr(planId)} not found`);

export const getDeviceById = (db: TelecomDB, deviceId: Id): TelecomDB['devices'][number] =>
  findOr(db.devices, (d) => d.device_id === deviceId, `Device with ID ${pyStr(deviceId)} not found`);

export const getBillById = (db: TelecomDB, billId: Id): Bill =>
  findOr(db.bills, (b) => b.bill_id === billId, `Bill with ID ${pyStr(billId)} not found`);

export const getCustomerById = (db: TelecomDB, customerId: Id): Customer =>
  findOr(db.customers, (c) => c.customer_id === customerId, `Customer with ID ${pyStr(customerId)} not found`);

/** By primary contact number, else by the number of one of the customer's lines (customers in order). */
export const getCustomerByPhone = (db: TelecomDB, phone: Id): Customer => {
  for (const customer of db.customers) {
    if (customer.phone_number === phone) return customer;
    for (const lineId of customer.line_ids) {
      if (getLineById(db, lineId).phone_number === phone) return customer;
    }
  }
  throw new ToolError(`Customer with phone number ${pyStr(phone)} not found`);
};

/** The customer's line, which must be one of theirs. */
export const getTargetLine = (db: TelecomDB, customerId: Id, lineId: Id): Line => {
  const customer = getCustomerById(db, customerId);
  if (typeof lineId !== 'string' || !customer.line_ids.includes(lineId)) {
    throw new ToolError(`Line ${pyStr(lineId)} not found for customer ${pyStr(customerId)}`);
  }
  return getLineById(db, lineId);
};

/** The customer's bills in `bill_ids` order that await payment. */
export const billsAwaitingPayment = (db: TelecomDB, customer: Customer): Bill[] =>
  customer.bill_ids.map((id) => getBillById(db, id)).filter((b) => b.status === 'Awaiting Payment');
