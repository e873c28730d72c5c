// MMS issues: picture and group messages cannot be sent (reference: src/tau2/domains/telecom/tasks/mms_issues.py).
import { choosesFrom } from './family.ts';
import type { IssueFamily } from './family.ts';
import { assertion, userCall, userFix } from './issue.ts';
import type { AtomicIssue } from './issue.ts';
import { dataModeIssues, dataUsageExceededIssues, networkPreferenceIssues, roamingIssues } from './mobile-data-issues.ts';
import { airplaneModeIssues, unseatSimCardIssues } from './service-issues.ts';
import { withToolCallGuidance } from './user-texts.ts';

/** Wi-Fi calling with MMS over Wi-Fi, so MMS never goes over mobile data. */
const badWifiCalling: AtomicIssue = {
  name: 'bad_wifi_calling',
  init: [userCall('set_wifi_calling', { enabled: true, mms_over_wifi: true })],
  fix: [userFix('toggle_wifi_calling')],
};

const breakApnMmsSetting: AtomicIssue = {
  name: 'break_apn_mms_setting',
  init: [userCall('break_apn_mms_setting')],
  fix: [userFix('reset_apn_settings'), userFix('reboot_device')],
};

/** The messaging app loses the given permissions. */
const messagingPermissionsRemoved = (name: string, permissions: readonly string[]): AtomicIssue => ({
  name,
  init: permissions.map((permission) => userCall('remove_app_permission', { app_name: 'messaging', permission })),
  fix: permissions.map((permission) => userFix('grant_app_permission', { app_name: 'messaging', permission })),
});

export const mmsIssues: IssueFamily = {
  name: 'mms_issue',
  purpose: 'Test resolution path: MMS (Picture/Group Messaging) Issues.',
  reasonForCall:
    'You are unable to send MMS messages using your messaging app for the past few hours. You want to fix it and successfully send an MMS message.',
  knownInfo: 'You are {name} with phone number {phone_number}. You are currently {location}.',
  ticket:
    'The user has been unable to send MMS messages using their messaging app for the past few hours. Customer name: {name}, phone number: {phone_number}, current location: {location}. They will consider the issue resolved when an MMS message can be successfully sent.',
  taskInstructions: withToolCallGuidance(
    "If the agent suggests actions that don't immediately fix the issue, follow their guidance but express mild frustration after the first unsuccessful attempt. You are willing to refuel 2.0 GB of data if necessary, but you do not want to change your mobile data plan.",
  ),
  // Service and mobile data issues may come on top; a task needs at least one of the last four (MMS) sets.
  selectionSets: [
    airplaneModeIssues,
    unseatSimCardIssues,
    dataModeIssues,
    dataUsageExceededIssues,
    roamingIssues,
    networkPreferenceIssues,
    [badWifiCalling],
    [breakApnMmsSetting],
    [
      messagingPermissionsRemoved('break_app_sms_permission', ['sms']),
      messagingPermissionsRemoved('break_app_storage_permission', ['storage']),
      messagingPermissionsRemoved('break_app_both_permissions', ['sms', 'storage']),
    ],
  ],
  isValid: choosesFrom(5),
  assertions: (expectedSuccess) => [assertion(userCall('assert_can_send_mms', { expected_status: expectedSuccess }))],
};
