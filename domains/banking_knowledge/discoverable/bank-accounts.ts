// The agent's discoverable bank-account and debit-card tools, in the reference's definition order (reference:
// `@is_discoverable_tool` methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py); each
// file under ./bank-accounts/ holds one group of them.
import type { TransactionalDB } from '../data_model.ts';
import { accountMoneyTools } from './bank-accounts/account-money.ts';
import { accountTools } from './bank-accounts/accounts.ts';
import { debitCardActivationTools } from './bank-accounts/debit-card-activation.ts';
import { debitCardLimitTools } from './bank-accounts/debit-card-limits.ts';
import { debitCardListingTools } from './bank-accounts/debit-card-listing.ts';
import { debitCardOrderTools } from './bank-accounts/debit-card-order.ts';
import { debitCardPinTools } from './bank-accounts/debit-card-pins.ts';
import { debitCardTools } from './bank-accounts/debit-cards.ts';
import { transactionTools } from './bank-accounts/transactions.ts';
import type { DiscoverableTools } from './declare.ts';

export const bankAccountTools: DiscoverableTools<TransactionalDB> = {
  ...accountTools,
  ...accountMoneyTools,
  ...transactionTools,
  ...debitCardOrderTools,
  ...debitCardActivationTools,
  ...debitCardTools,
  ...debitCardPinTools,
  ...debitCardListingTools,
  ...debitCardLimitTools,
};
