// "No service" issues: the phone shows no signal (reference: src/tau2/domains/telecom/tasks/service_issues.py).
import type { EnvAssertion } from '../../../src/core/schemas/task.ts';
import type { IssueFamily } from './family.ts';
import { agentCall, agentFix, assertion, subscriber, subscriberLine, userCall, userFix } from './issue.ts';
import type { AtomicIssue, InitStep, SelectionSet } from './issue.ts';
import { withToolCallGuidance } from './user-texts.ts';

/** The id of the overdue bill a suspension creates. */
export const OVERDUE_BILL_ID = 'B1234321';

/** The check that a break took effect: the phone has no service. */
const noService = (message: string): EnvAssertion =>
  assertion(userCall('assert_service_status', { expected_status: 'no_service' }), message);

export const airplaneModeOn: AtomicIssue = {
  name: 'airplane_mode_on',
  init: [
    userCall('turn_airplane_mode_on'),
    assertion(userCall('assert_airplane_mode_status', { expected_status: true })),
    noService('Airplane mode is on but service is not broken'),
  ],
  fix: [userFix('toggle_airplane_mode')],
};

export const unseatSimCard: AtomicIssue = {
  name: 'unseat_sim_card',
  init: [userCall('unseat_sim_card'), noService('SIM card is unseated but service is not broken')],
  fix: [userFix('reseat_sim_card')],
};

const lockSimCardPin: AtomicIssue = {
  name: 'lock_sim_card_pin',
  init: [userCall('lock_sim_card', { mode: 'pin' }), noService('SIM card is locked with pin but service is not broken')],
  fix: 'transfer',
};

const breakApnSettings: AtomicIssue = {
  name: 'break_apn_settings',
  init: [userCall('break_apn_settings'), noService('APN settings are broken but service is not broken')],
  fix: [userFix('reset_apn_settings'), userFix('reboot_device')],
};

const suspendForOverdueBill = (contractEnded: boolean): InitStep[] => [
  agentCall('suspend_line_for_overdue_bill', {
    ...subscriberLine(),
    new_bill_id: OVERDUE_BILL_ID,
    contract_ended: contractEnded,
  }),
  userCall('simulate_network_search'),
  noService('User is suspended for an overdue bill but service is not broken'),
  assertion(
    agentCall('assert_overdue_bill_exists', { customer_id: subscriber.customerId, overdue_bill_id: OVERDUE_BILL_ID }),
    'Overdue bill does not exist',
  ),
  assertion(agentCall('assert_line_status', { ...subscriberLine(), expected_status: 'Suspended' }), 'Line is not suspended'),
];

const overdueBillSuspension: AtomicIssue = {
  name: 'overdue_bill_suspension',
  init: suspendForOverdueBill(false),
  fix: [
    agentFix('send_payment_request', { customer_id: subscriber.customerId, bill_id: OVERDUE_BILL_ID }),
    userFix('make_payment'),
    agentFix('resume_line', subscriberLine()),
    userFix('reboot_device'),
  ],
};

/** Suspended for an overdue bill after the contract ended: only a human can resume the line. */
const contractEndSuspension: AtomicIssue = {
  name: 'contract_end_suspension',
  init: suspendForOverdueBill(true),
  fix: 'transfer',
};

export const airplaneModeIssues: SelectionSet = [airplaneModeOn];
export const unseatSimCardIssues: SelectionSet = [unseatSimCard];

const serviceAssertions = (expectedSuccess: boolean): EnvAssertion[] =>
  expectedSuccess
    ? [
        assertion(userCall('assert_service_status', { expected_status: 'connected' }), 'Service status is not as expected'),
        assertion(agentCall('assert_no_overdue_bill', { overdue_bill_id: OVERDUE_BILL_ID }), 'Overdue bill is not as expected'),
      ]
    : [assertion(userCall('assert_service_status', { expected_status: 'no_service' }))];

export const serviceIssues: IssueFamily = {
  name: 'service_issue',
  purpose: 'Test resolution path: No Service/Connection Issues.',
  reasonForCall: "Your phone has been showing 'No Service' for the past few hours.",
  knownInfo: 'You are {name} with phone number {phone_number}.',
  ticket:
    "The user is experiencing issues with their phone service. They are unable to make or receive calls, and the status bar shows 'No Service'. Customer name: {name}, phone number: {phone_number}. They gave permission to pay all their overdue bills. They will consider the issue resolved when the status bar shows that they have signal.",
  taskInstructions: withToolCallGuidance(
    "If the agent suggests actions that don't immediately fix the issue, follow their guidance but express mild frustration after the first unsuccessful attempt. You will consider the issue resolved when the status bar shows that you have signal. Always check the status bar if the agent asks you for status information. If the agent asks you to pay a bill, you accept.",
  ),
  selectionSets: [
    airplaneModeIssues,
    unseatSimCardIssues,
    [lockSimCardPin],
    [breakApnSettings],
    [overdueBillSuspension, contractEndSuspension],
  ],
  assertions: serviceAssertions,
};
