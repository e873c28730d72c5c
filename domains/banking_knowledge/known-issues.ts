// banking_knowledge gold actions that fail in the reference too. None raises (so none is a GoldActionErrors
// entry: the gold DB keeps every action); these return the tool's refusal text instead, and change nothing.
// check-data requires exactly these refusals, and no other.
import type { GoldActionRefusals } from '../../src/core/environment/domain.ts';

const MISSING_LIABILITY =
  "file_debit_card_transaction_dispute_6281: Error: Invalid arguments: KnowledgeTools.file_debit_card_transaction_dispute_6281() missing 1 required positional argument: 'customer_max_liability_amount'";

export const BANKING_GOLD_ACTION_REFUSALS: Readonly<Record<string, GoldActionRefusals>> = {
  task_051: {
    refusals: ['submit_credit_limit_increase_request_7392: Error: A similar request may already exist.'],
    reason:
      'the gold path submits the same credit limit increase request (same account, user and amount) twice; the ' +
      'second gets the same deterministic request id and is refused',
  },
  task_083: {
    refusals: [MISSING_LIABILITY, MISSING_LIABILITY, MISSING_LIABILITY, MISSING_LIABILITY],
    reason:
      "the four gold dispute filings leave out the tool's required customer_max_liability_amount argument, so none " +
      'is filed; the gold DB holds no debit card dispute',
  },
};
