// Ordering a debit card: the order, its fee (taken from the account, with a transaction), and the PENDING card
// with its derived number and CVV (reference: order_debit_card_5739 of KnowledgeTools in tools.py).
import { PyFloat, pyEquals, pyFormatFixed, pyRepr, pyStr, toNumber } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb, field, getRecord, tableRecords, updateRecordInDb } from '../../db_query.ts';
import { fieldOr, isOneOf } from '../../record-values.ts';
import { deterministicId, generateDebitCardId, generateDebitCardOrderId, getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { accountNotFound } from './records.ts';
import { allTruthy, asStr, floatOrNull } from './python.ts';
import { inTable } from '../python-values.ts';

const DELIVERY_TIMES: Readonly<Record<string, string>> = {
  STANDARD: '7-10 business days',
  EXPEDITED: '3-5 business days',
  RUSH: '1-2 business days',
};
const DELIVERY_OPTIONS = Object.keys(DELIVERY_TIMES);
const CARD_DESIGNS = ['CLASSIC', 'PREMIUM', 'CUSTOM'];
/** A closed card's closure reasons that make the next card a replacement of that kind. */
const REPLACED_FOR = ['lost', 'stolen', 'fraud', 'fraud_suspected'];

const money = (value: number): string => `$${pyFormatFixed(new PyFloat(value), 2)}`;

/** `"".join(c for c in text if c.isdigit())[:n].zfill(n)` on a hex digest. */
const digitsOf = (hex: string, n: number): string => hex.replace(/\D/g, '').slice(0, n).padStart(n, '0');

/** The last day of the order's month, four years on (day 28 for February, as the reference writes it). */
const expirationOf = (orderDate: string): string => {
  const [month, , year] = orderDate.split('/');
  const day = ['01', '03', '05', '07', '08', '10', '12'].includes(month!) ? '31' : month === '02' ? '28' : '30';
  return `${month}/${day}/${Number(year) + 4}`;
};

/** The new card's issue_reason: the first closed card's loss, else a first card, else a new account's card. */
const issueReasonFor = (db: TransactionalDB, accountId: string): PyValue => {
  const existing = tableRecords(db, 'debit_cards')
    .map(([, card]) => card)
    .filter((card) => pyEquals(fieldOr(card, 'account_id', null), accountId));
  const closed = existing.find((card) => field(card, 'status') === 'CLOSED');
  if (closed) {
    const reason = fieldOr(closed, 'closure_reason', 'first_card');
    if (!isOneOf(reason, REPLACED_FOR)) return 'first_card';
    return reason === 'fraud_suspected' ? 'fraud' : reason;
  }
  return existing.length > 0 ? 'first_card' : 'new_account';
};

export const debitCardOrderTools = defineDiscoverableTools<TransactionalDB>({
  order_debit_card_5739: {
    type: 'write',
    doc: `Order a new debit card for a customer's checking account.

Args:
    account_id (string): The checking account ID to link the debit card to
    user_id (string): The customer's unique identifier
    delivery_option (string): Shipping speed: STANDARD, EXPEDITED, or RUSH
    delivery_fee (number): Fee to charge for delivery in dollars
    card_design (string): Card design: CLASSIC, PREMIUM, or CUSTOM
    design_fee (number): Fee to charge for card design in dollars
    shipping_address (string): Full shipping address for card delivery
    excess_replacement_fee (number, optional): Fee for exceeding replacement limit, if applicable

Returns:
    Debit card order placed successfully.`,
    params: signature(
      ['account_id', 'user_id', 'delivery_option', 'delivery_fee', 'card_design', 'design_fee', 'shipping_address'],
      { excess_replacement_fee: null },
    ),
    run: (db, a) => {
      const deliveryFee = a.delivery_fee === null ? null : floatOrNull(a.delivery_fee);
      if (a.delivery_fee !== null && deliveryFee === null) return 'Error: delivery_fee must be a number.';
      const designFee = a.design_fee === null ? null : floatOrNull(a.design_fee);
      if (a.design_fee !== null && designFee === null) return 'Error: design_fee must be a number.';
      // `float(excess or 0)`, and the int 0 where float() refuses.
      const excessFee: number | PyFloat = floatOrNull(truthy(a.excess_replacement_fee) ? a.excess_replacement_fee : 0) ?? 0;
      if (
        !allTruthy([a.account_id, a.user_id, a.delivery_option]) ||
        deliveryFee === null ||
        !truthy(a.card_design) ||
        designFee === null ||
        !truthy(a.shipping_address)
      ) {
        return 'Error: Missing required parameters. Required: account_id, user_id, delivery_option, delivery_fee, card_design, design_fee, shipping_address.';
      }
      const delivery = asStr(a.delivery_option, 'upper').toUpperCase();
      if (!DELIVERY_OPTIONS.includes(delivery)) return `Error: Invalid delivery_option. Must be one of: ${pyRepr(DELIVERY_OPTIONS)}`;
      const design = asStr(a.card_design, 'upper').toUpperCase();
      if (!CARD_DESIGNS.includes(design)) return `Error: Invalid card_design. Must be one of: ${pyRepr(CARD_DESIGNS)}`;
      if (!inTable(db, 'accounts', a.account_id)) return accountNotFound(a.account_id);
      const accountId = a.account_id;
      const account = getRecord(db, 'accounts', accountId)!;
      if (field(account, 'class') !== 'checking') {
        return `Error: Debit cards can only be ordered for checking accounts. Account '${accountId}' is a ${pyStr(field(account, 'class'))} account.`;
      }
      if (field(account, 'status') !== 'OPEN') {
        return `Error: Account must be OPEN. Account '${accountId}' has status: ${pyStr(field(account, 'status'))}`;
      }
      if (!pyEquals(fieldOr(account, 'user_id', null), a.user_id!)) {
        return `Error: Account '${accountId}' does not belong to user '${pyStr(a.user_id)}'.`;
      }
      // The balance is read without stripping "$" (a balance written by a transfer reads as 0.0).
      const holdings = floatOrNull(pyStr(fieldOr(account, 'current_holdings', '0')).replaceAll(',', ''))?.value ?? 0;
      if (holdings < 25) return `Error: Account must have a minimum balance of $25. Current balance: ${money(holdings)}`;
      const ofAccount = (table: 'debit_card_orders' | 'debit_cards', status: string): boolean =>
        tableRecords(db, table).some(([, r]) => pyEquals(fieldOr(r, 'account_id', null), accountId) && field(r, 'status') === status);
      if (ofAccount('debit_card_orders', 'PENDING')) {
        return `Error: There is already a pending debit card order for account '${accountId}'.`;
      }
      if (ofAccount('debit_cards', 'ACTIVE')) {
        return `Error: Account '${accountId}' already has an active debit card. Maximum 1 active card per checking account.`;
      }
      const excess = toNumber(excessFee);
      const total = deliveryFee.value + designFee.value + excess;
      if (total > 0 && holdings < total) {
        return `Error: Insufficient funds for fees. Total fees: ${money(total)}. Current balance: ${money(holdings)}`;
      }
      const orderDate = getTodayStr();
      const orderId = generateDebitCardOrderId(accountId, a.user_id!, delivery);
      const order: Record<string, PyValue> = {
        order_id: orderId,
        account_id: accountId,
        user_id: a.user_id!,
        delivery_option: delivery,
        card_design: design,
        shipping_address: a.shipping_address!,
        delivery_fee: deliveryFee,
        design_fee: designFee,
        excess_replacement_fee: excessFee,
        total_fee: new PyFloat(total),
        order_date: orderDate,
        expected_delivery: DELIVERY_TIMES[delivery]!,
        status: 'PENDING',
      };
      if (!addToDb(db, 'debit_card_orders', orderId, order)) {
        return 'Error: Failed to create debit card order. Order may already exist.';
      }
      // Each fee charged, by name: the transaction says "Delivery $15.0", the answer "Delivery: $15.0".
      const fees: [string, string][] = [];
      if (deliveryFee.value > 0) fees.push(['Delivery', `$${pyStr(deliveryFee)}`]);
      if (designFee.value > 0) fees.push(['Design', `$${pyStr(designFee)}`]);
      if (excess > 0) fees.push(['Excess Replacement', `$${pyFormatFixed(excessFee, 0)}`]);
      if (total > 0) {
        updateRecordInDb(db, 'accounts', accountId, [['current_holdings', pyFormatFixed(new PyFloat(holdings - total), 2)]]);
        const feeTransactionId = `btxn_dcfee_${orderId.slice(-8)}`;
        addToDb(db, 'bank_account_transaction_history', feeTransactionId, {
          transaction_id: feeTransactionId,
          account_id: accountId,
          date: orderDate,
          description: `DEBIT CARD ORDER FEE - ${fees.map(([name, amount]) => `${name} ${amount}`).join(', ')}`,
          amount: new PyFloat(-total),
          type: 'debit_card_fee',
          status: 'posted',
        });
      }
      const cardId = generateDebitCardId(accountId, a.user_id!, orderDate);
      const user = inTable(db, 'users', a.user_id) ? getRecord(db, 'users', a.user_id) : undefined;
      addToDb(db, 'debit_cards', cardId, {
        card_id: cardId,
        account_id: accountId,
        user_id: a.user_id!,
        cardholder_name: user ? asStr(fieldOr(user, 'name', 'CARDHOLDER'), 'upper').toUpperCase() : 'CARDHOLDER',
        last_4_digits: digitsOf(deterministicId(`card_details:${cardId}:last4`, 8), 4),
        cvv: digitsOf(deterministicId(`card_details:${cardId}:cvv`, 6), 3),
        status: 'PENDING',
        issue_date: orderDate,
        expiration_date: expirationOf(orderDate),
        card_design: design,
        issue_reason: issueReasonFor(db, accountId),
      });
      const lines = [
        'Debit Card Order Confirmed',
        `Order ID: ${orderId}`,
        `Card ID: ${cardId}`,
        `Linked Account: ${accountId}`,
        `Delivery Option: ${delivery}`,
        `Card Design: ${design}`,
        `Shipping Address: ${pyStr(a.shipping_address)}`,
        `Expected Delivery: ${DELIVERY_TIMES[delivery]!}`,
        '',
        'Note: Card will arrive with status PENDING. Customer must call to activate after receiving the card.',
      ];
      if (total > 0) {
        const details = fees.map(([name, amount]) => `${name}: ${amount}`).join(', ');
        lines.push(`Total Fees: ${money(total)} (${details}) - CHARGED to account ${accountId}`, `New Account Balance: ${money(holdings - total)}`);
      } else {
        lines.push('Total Fees: $0 (No additional charges)');
      }
      return lines.join('\n');
    },
  },
});
