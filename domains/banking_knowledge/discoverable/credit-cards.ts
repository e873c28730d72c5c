// The agent's discoverable credit-card tools (with the debit dispute and ATM deposit tools defined among them),
// in the reference's definition order (reference: `@is_discoverable_tool` methods of KnowledgeTools from
// example_agent_tool_0000 to deny_credit_limit_increase_5848 in src/tau2/domains/banking_knowledge/tools.py).
import type { TransactionalDB } from '../data_model.ts';
import { accountChangeTools } from './credit-cards/account-changes.ts';
import { atmDepositImageTools } from './credit-cards/atm-deposit-images.ts';
import { creditLimitTools } from './credit-cards/credit-limits.ts';
import { creditDisputeTools } from './credit-cards/credit-dispute.ts';
import { debitDisputeTools } from './credit-cards/debit-disputes.ts';
import { generalTools } from './credit-cards/general.ts';
import { replacementAndClosureTools } from './credit-cards/replacements-and-closures.ts';
import { defineDiscoverableTools } from './declare.ts';

export const creditCardTools = defineDiscoverableTools<TransactionalDB>({
  ...generalTools,
  ...creditDisputeTools,
  ...debitDisputeTools,
  ...atmDepositImageTools,
  ...replacementAndClosureTools,
  ...accountChangeTools,
  ...creditLimitTools,
});
