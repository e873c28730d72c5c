// Keeps the user's surroundings in step with the network side after every tool call and every step: line
// status, roaming allowance, data-limit state and bill payment requests (reference:
// TelecomEnvironment.sync_tools in src/tau2/domains/telecom/environment.py). Device readings (signal,
// technology) change only through the phone's own network search, never here.
import { add, compare } from '../../src/core/py/index.ts';
import type { SyncDrafts } from '../../src/core/environment/domain.ts';
import type { TelecomDB } from './data_model.ts';
import type { TelecomUserDB } from './user_data_model.ts';
import { billsAwaitingPayment, getBillById, getCustomerByPhone, getLineByPhone, getPlanById } from './lookups.ts';

export const syncTelecom = ({ db, userDb }: SyncDrafts<TelecomDB, TelecomUserDB>): void => {
  const { surroundings } = userDb;
  const phone = surroundings.phone_number;
  if (phone === null) return;
  const line = getLineByPhone(db, phone);
  surroundings.line_active = line.status === 'Active';
  surroundings.roaming_allowed = line.roaming_enabled;
  const plan = getPlanById(db, line.plan_id);
  surroundings.mobile_data_usage_exceeded = compare(line.data_used_gb, add(plan.data_limit_gb, line.data_refueling_gb)) >= 0;

  const request = surroundings.payment_request;
  if (request !== null && request.paid) {
    getBillById(db, request.bill_id).status = 'Paid';
    surroundings.payment_request = null;
  }
  if (surroundings.payment_request === null) {
    const [bill] = billsAwaitingPayment(db, getCustomerByPhone(db, phone));
    if (bill) surroundings.payment_request = { bill_id: bill.bill_id, amount_due: bill.total_due, paid: false };
  }
};
