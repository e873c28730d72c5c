// The ATM deposit image look-up (reference: get_atm_deposit_images_8473 in
// src/tau2/domains/banking_knowledge/tools.py). Three scenario deposits have scanned envelopes; every other
// Rho-Bank ATM deposit reports its images as unavailable. The texts are the model's evidence, kept byte-exact.
import { PyError, isPyFloat, pyFormatFixed, pyStr, pyTypeName } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { field, getRecord } from '../../db_query.ts';
import { fieldOr } from '../../record-values.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { inTable, pyUpper } from '../python-values.ts';

/** An envelope holding one $875.00 check and $260.00 cash of which the ATM recorded only $385.00. */
interface CheckAndCashEnvelope {
  readonly envelopeId: string;
  readonly depositTime: string;
  readonly location: string;
  readonly checkNumber: string;
  readonly drawnOn: string;
  readonly payee: string;
  readonly checkDate: string;
}

const checkAndCashScan = (e: CheckAndCashEnvelope): string => `
=== ATM DEPOSIT ENVELOPE SCAN ===
Envelope ID: ${e.envelopeId}
Deposit Time: ${e.depositTime}
ATM Location: ${e.location}

--- ENVELOPE CONTENTS ---
Item 1: Personal Check
  - Check Number: ${e.checkNumber}
  - Drawn On: ${e.drawnOn}
  - Payee: ${e.payee}
  - Amount: $875.00
  - Memo: "October rent refund"
  - Signature: Present and legible
  - Date on Check: ${e.checkDate}

Item 2: Cash
  - Denomination breakdown:
    * 2 x $100 bills = $200.00
    * 3 x $20 bills = $60.00
  - Total Cash: $260.00

--- DEPOSIT SUMMARY ---
Check Total: $875.00
Cash Total: $260.00
GRAND TOTAL: $1,135.00

--- MACHINE RECORD ---
Amount Recorded by ATM: $385.00
DISCREPANCY DETECTED: $750.00 difference

--- IMAGE QUALITY ---
Envelope scan: CLEAR
Check front: CLEAR
Check back (endorsement): CLEAR - endorsed "For Deposit Only - ${e.payee}"
Cash image: CLEAR - bills visible and countable
`;

const DISCREPANCY_CONFIRMED =
  'Images clearly show deposit contents totaling $1,135.00. ATM machine recorded only $385.00. Discrepancy of $750.00 confirmed via image review.';

interface DepositImages {
  readonly atm: string;
  readonly envelope: string;
  readonly notes: string;
}

/** The scanned deposits, by transaction id. */
const DEPOSIT_IMAGES: Readonly<Record<string, DepositImages>> = {
  btxn_834027370c20: {
    atm: 'ATM #3921',
    envelope: checkAndCashScan({
      envelopeId: 'ENV-2025-3921-00923',
      depositTime: '3:47 PM CST',
      location: 'Rho-Bank ATM #3921, Cedar Lane Branch, Austin, TX',
      checkNumber: '7284',
      drawnOn: 'First Texas Bank',
      payee: 'Derek Yamamoto',
      checkDate: '11/03/2025',
    }),
    notes: DISCREPANCY_CONFIRMED,
  },
  btxn_test_deposit_001: {
    atm: 'ATM #3921',
    envelope: checkAndCashScan({
      envelopeId: 'ENV-2025-3921-00847',
      depositTime: '2:34 PM EST',
      location: 'Rho-Bank ATM #3921, 742 Oak Avenue, Portland, OR',
      checkNumber: '4821',
      drawnOn: 'First National Bank',
      payee: 'Linda Patterson',
      checkDate: '11/05/2025',
    }),
    notes: DISCREPANCY_CONFIRMED,
  },
  btxn_test_atm_dep_partial: {
    atm: 'ATM #5847',
    envelope: `
=== ATM DEPOSIT ENVELOPE SCAN ===
Envelope ID: ENV-2025-5847-00293
Deposit Time: 10:15 AM EST

--- ENVELOPE CONTENTS ---
Item 1: Personal Check
  - Check Number: 7392
  - Amount: $500.00

--- DEPOSIT SUMMARY ---
Check Total: $500.00
Cash Total: $0.00
GRAND TOTAL: $500.00

--- MACHINE RECORD ---
Amount Recorded by ATM: $500.00
No discrepancy detected.
`,
    notes: 'Images confirm deposit matches recorded amount. No discrepancy found.',
  },
};

/** `abs(value)` formatted `:.2f`. */
const absFixed2 = (value: PyValue): string => {
  if (typeof value === 'number' || typeof value === 'boolean') return pyFormatFixed(Math.abs(Number(value)), 2);
  if (isPyFloat(value)) return pyFormatFixed(Math.abs(value.value), 2);
  throw new PyError('TypeError', `bad operand type for abs(): '${pyTypeName(value)}'`);
};

const HEADER = 'ATM Deposit Image Retrieval Results\n=====================================';

export const atmDepositImageTools = defineDiscoverableTools<TransactionalDB>({
  get_atm_deposit_images_8473: {
    type: 'read',
    doc: `Retrieve ATM deposit envelope/check images for a specific ATM deposit transaction.

Args:
    transaction_id (string): The transaction ID of the ATM deposit to retrieve images for

Returns:
    ATM deposit images retrieved successfully.`,
    params: signature(['transaction_id']),
    run: (db, { transaction_id: id }) => {
      if (!truthy(id)) return 'Error: Missing required parameter: transaction_id';
      if (!inTable(db, 'bank_account_transaction_history', id)) return `Error: Transaction '${pyStr(id!)}' not found.`;
      const txn = getRecord(db, 'bank_account_transaction_history', id)!;
      if (field(txn, 'type') !== 'atm_deposit') {
        return `Error: Transaction '${id}' is not an ATM deposit. This tool only works for ATM deposit transactions.`;
      }
      const description = fieldOr(txn, 'description', '');
      const upper = pyUpper(description);
      if (!upper.includes('RHO-BANK') && !upper.includes('RHOBANK')) {
        return `Error: Transaction '${id}' is from a third-party ATM. Deposit images are only available for Rho-Bank ATM deposits. For third-party ATM disputes, a chargeback request must be submitted to the ATM network.`;
      }
      const date = pyStr(fieldOr(txn, 'date', 'Unknown'));
      const images = Object.hasOwn(DEPOSIT_IMAGES, id) ? DEPOSIT_IMAGES[id]! : undefined;
      if (images) {
        return `${HEADER}\nTransaction ID: ${id}\nATM: ${images.atm}\nDeposit Date: ${date}\n\n${images.envelope}\n\n--- VERIFICATION NOTES ---\n${images.notes}\n`;
      }
      return `${HEADER}
Transaction ID: ${id}
ATM: ${pyStr(description)}
Deposit Date: ${date}
Amount Recorded: $${absFixed2(fieldOr(txn, 'amount', 0))}

--- IMAGE STATUS ---
Status: IMAGES NOT AVAILABLE
Reason: Deposit images for this transaction have either expired (older than 90 days) or were not captured by the ATM system.

For deposits without available images, the dispute will proceed based on customer statement and ATM journal records only. Investigation timeline may be extended.
`;
    },
  },
});
