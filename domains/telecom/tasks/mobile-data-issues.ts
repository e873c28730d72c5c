// Mobile data issues: no mobile data or slow internet
// (reference: src/tau2/domains/telecom/tasks/mobile_data_issues.py).
import { pyFloat } from '../../../src/core/py/index.ts';
import type { EnvAssertion } from '../../../src/core/schemas/task.ts';
import { choosesFrom } from './family.ts';
import type { IssueFamily } from './family.ts';
import { agentCall, agentFix, assertion, subscriberLine, userCall, userFix } from './issue.ts';
import type { AtomicIssue, InitStep, SelectionSet } from './issue.ts';
import { airplaneModeIssues } from './service-issues.ts';
import { withToolCallGuidance } from './user-texts.ts';

/** The data the user is willing to buy, in GB. */
const REFUEL_GB = 2;

const usageExceeded = assertion(userCall('assert_mobile_data_usage_exceeded', { expected_status: true }));

const goAbroad = userCall('set_user_location', { abroad: true });
const roaming = (on: boolean): InitStep[] => [
  userCall(on ? 'turn_roaming_on' : 'turn_roaming_off'),
  assertion(userCall('assert_mobile_roaming_status', { expected_status: on })),
];
const disallowRoaming: InitStep[] = [
  agentCall('disable_roaming', subscriberLine()),
  userCall('simulate_network_search'),
  assertion(userCall('assert_internet_speed', { expected_speed: 0, expected_desc: 'No Connection' })),
];

/** Abroad, roaming allowed on the line but off on the phone. */
const roamingEnabledOff: AtomicIssue = {
  name: 'user_abroad_roaming_enabled_off',
  init: [goAbroad, ...roaming(false), agentCall('enable_roaming', subscriberLine())],
  fix: [userFix('toggle_roaming')],
};

/** Abroad, roaming on on the phone but not allowed on the line. */
const roamingDisabledOn: AtomicIssue = {
  name: 'user_abroad_roaming_disabled_on',
  init: [goAbroad, ...roaming(true), ...disallowRoaming],
  fix: [agentFix('enable_roaming', subscriberLine())],
};

/** Abroad, roaming neither allowed on the line nor on on the phone. */
const roamingDisabledOff: AtomicIssue = {
  name: 'user_abroad_roaming_disabled_off',
  init: [goAbroad, ...roaming(false), ...disallowRoaming],
  fix: [agentFix('enable_roaming', subscriberLine()), userFix('toggle_roaming')],
};

const dataModeOff: AtomicIssue = {
  name: 'data_mode_off',
  init: [userCall('turn_data_off'), assertion(userCall('assert_mobile_data_status', { expected_status: false }))],
  fix: [userFix('toggle_data')],
};

const dataSaverModeOn: AtomicIssue = {
  name: 'data_saver_mode_on',
  init: [
    userCall('turn_data_saver_mode_on'),
    assertion(userCall('assert_mobile_data_saver_mode_status', { expected_status: true })),
  ],
  fix: [userFix('toggle_data_saver_mode')],
};

const badNetworkPreference: AtomicIssue = {
  name: 'bad_network_preference',
  init: [userCall('set_network_mode_preference', { mode: '2g_only' })],
  fix: [userFix('set_network_mode_preference', { mode: '4g_5g_preferred' })],
};

/** A VPN to a slow server. */
const badVpn: AtomicIssue = {
  name: 'bad_vpn',
  init: [userCall('break_vpn'), assertion(userCall('assert_internet_not_excellent'))],
  fix: [userFix('disconnect_vpn')],
};

const dataUsageExceeded: AtomicIssue = {
  name: 'data_usage_exceeded',
  init: [agentCall('set_data_usage', { ...subscriberLine(), data_used_gb: pyFloat(15.1) }), usageExceeded],
  fix: [agentFix('refuel_data', { ...subscriberLine(), gb_amount: pyFloat(REFUEL_GB) })],
  extraSuccessAssertions: (world) => [
    assertion(
      agentCall('assert_data_refueling_amount', {
        ...subscriberLine(),
        expected_amount: pyFloat(world.dataRefuelingGb + REFUEL_GB),
      }),
    ),
  ],
};

/** The allowance is used up even after a refuel: the agent must not refuel again. */
const dataUsageExceededNoRefuel: AtomicIssue = {
  name: 'data_usage_exceeded_no_refuel',
  init: [
    agentCall('refuel_data', { ...subscriberLine(), gb_amount: pyFloat(REFUEL_GB) }),
    agentCall('set_data_usage', { ...subscriberLine(), data_used_gb: pyFloat(17.1) }),
    usageExceeded,
  ],
  fix: 'transfer',
};

export const roamingIssues: SelectionSet = [roamingEnabledOff, roamingDisabledOn, roamingDisabledOff];
export const dataModeIssues: SelectionSet = [dataModeOff];
export const dataUsageExceededIssues: SelectionSet = [dataUsageExceeded, dataUsageExceededNoRefuel];
export const networkPreferenceIssues: SelectionSet = [badNetworkPreference];

const mobileDataAssertions = (expectedSuccess: boolean): EnvAssertion[] => [
  assertion(userCall('assert_mobile_data_status', { expected_status: expectedSuccess })),
  assertion(
    userCall(
      'assert_internet_speed',
      expectedSuccess ? { expected_speed: 200, expected_desc: 'excellent' } : { expected_speed: 0, expected_desc: null },
    ),
  ),
];

export const mobileDataIssues: IssueFamily = {
  name: 'mobile_data_issue',
  purpose: 'Test resolution path: Mobile Data/Slow Internet Issues.',
  reasonForCall:
    'You mobile data is not working properly. It either stops working or is very slow. You want to fix it and absolutely want to get excellent internet speed on your phone. You are not willing to accept any other internet speed (poor, fair or good). You do not have access to wifi.',
  knownInfo: 'You are {name} with phone number {phone_number}. You are currently {location}.',
  ticket:
    "The user is experiencing issues with their mobile data. They are unable to use their phone to browse the internet, and the status bar shows 'No Service'. Customer name: {name}, phone number: {phone_number}, current location: {location}. They will consider the issue resolved when speed test returns excellent internet speed. They will not change their mobile data plan but they will refuel 2.0 GB of data if necessary.",
  taskInstructions: withToolCallGuidance(
    "If the agent suggests actions that don't immediately fix the issue, follow their guidance but express mild frustration after the first unsuccessful attempt. You will consider the issue resolved only when speed test returns excellent internet speed and nothing else. If it returns poor, fair or good, you will not consider the issue resolved. You are willing to refuel 2.0 GB of data if necessary, but you do not want to change your mobile data plan.",
  ),
  // A task needs at least one mobile data issue; airplane mode may come on top.
  selectionSets: [
    airplaneModeIssues,
    roamingIssues,
    dataModeIssues,
    [dataSaverModeOn],
    networkPreferenceIssues,
    [badVpn],
    dataUsageExceededIssues,
  ],
  isValid: choosesFrom(1),
  assertions: mobileDataAssertions,
};
