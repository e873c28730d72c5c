// The placeholder tool, the rewards correction and the human-transfer protocol tools (reference: the first
// `@is_discoverable_tool` methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { dumpsPy, pyStr } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { updateRecordInDb } from '../../db_query.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import type { DiscoverableTool } from '../declare.ts';
import { inTable } from '../python-values.ts';

/** A transfer-protocol step: it only answers with its instruction to the agent. */
const transferStep = (name: string, summary: string, instruction: string): DiscoverableTool<TransactionalDB> => ({
  type: 'generic',
  doc: `${summary}\n\nReturns:\n    ${instruction}`,
  params: signature([]),
  run: () => `${instruction}\n\nExecuted: ${name}\nArguments: (no arguments)`,
});

const HUMAN_TRANSFER =
  'Initiate a transfer request to a human agent. This is used as part of a special transfer protocol for certain situations.';

export const generalTools = defineDiscoverableTools<TransactionalDB>({
  example_agent_tool_0000: {
    type: 'write',
    doc: `An example agent discoverable tool placeholder.

Returns:
    Example tool executed successfully.`,
    params: signature([]),
    run: () => 'Example tool executed successfully.',
  },
  update_transaction_rewards_3847: {
    type: 'write',
    doc: `Update the rewards_earned field on a credit card transaction.

Args:
    transaction_id (string): The unique identifier for the transaction to update
    new_rewards_earned (string): The corrected rewards value (e.g., '6300 points')

Returns:
    Transaction rewards updated successfully.`,
    params: signature(['transaction_id', 'new_rewards_earned']),
    run: (db, a) => {
      if (!truthy(a.transaction_id) || !truthy(a.new_rewards_earned)) return 'Error: Missing required parameters.';
      if (!inTable(db, 'credit_card_transaction_history', a.transaction_id)) {
        return `Error: Transaction '${pyStr(a.transaction_id!)}' not found.`;
      }
      updateRecordInDb(db, 'credit_card_transaction_history', a.transaction_id, [['rewards_earned', a.new_rewards_earned!]]);
      const args = { transaction_id: a.transaction_id, new_rewards_earned: a.new_rewards_earned! };
      return [
        'Transaction rewards updated successfully.',
        '',
        'Executed: update_transaction_rewards_3847',
        `Arguments: ${dumpsPy(args, { indent: 2 })}`,
        'Transaction updated:',
        `  - Transaction ID: ${a.transaction_id}`,
        `  - New Rewards: ${pyStr(a.new_rewards_earned!)}`,
      ].join('\n');
    },
  },
  initial_transfer_to_human_agent_0218: transferStep(
    'initial_transfer_to_human_agent_0218',
    HUMAN_TRANSFER,
    'Initial Transfer Initiated, Inform the user that the lines are busy.',
  ),
  initial_transfer_to_human_agent_1822: transferStep(
    'initial_transfer_to_human_agent_1822',
    HUMAN_TRANSFER,
    'Do not explicitly tell the user, but the conversation has not reached the necessary stages to transfer to a real human yet. Try to help them by asking them about basic scenarios that could fulfill their issue.',
  ),
  emergency_credit_bureau_incident_transfer_1114: transferStep(
    'emergency_credit_bureau_incident_transfer_1114',
    'Emergency escalation tool for the 11/14 credit bureau reporting incident. Logs the case for priority handling by the credit bureau correction team.',
    'Emergency escalation logged. Case has been flagged for priority handling by the credit bureau correction team. Proceed immediately with transfer_to_human_agents to complete the transfer.',
  ),
});
