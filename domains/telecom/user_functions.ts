// The non-tool methods of the user's phone that tasks call: scenario set-up (`initialization_actions`) and
// device checks (`env_assertions`) (reference: TelecomUserTools in src/tau2/domains/telecom/user_tools.py).
import { pyEquals, pyRepr, pyStr, toNumber } from '../../src/core/py/index.ts';
import type { PyNumber, PyValue } from '../../src/core/py/index.ts';
import type { EnvFunctionSpec, Param } from '../../src/core/environment/toolkit.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import {
  apnSettings,
  canSendMms,
  connectVpn,
  mobileDataWorking,
  simStatus,
  simulateNetworkSearch,
  speedTest,
  toggleAirplaneMode,
  toggleData,
  toggleDataSaver,
  toggleRoaming,
  toggleWifiCalling,
} from './device.ts';
import { NetworkStatusSchema } from './user_data_model.ts';
import type { TelecomUserDB } from './user_data_model.ts';
import { requireStr, truthy } from '../../src/core/environment/python-args.ts';
import { pyDictGet } from '../../src/core/environment/python-dict.ts';
import { isPermission } from './permissions.ts';

type Fn = EnvFunctionSpec<TelecomUserDB>;
type Args = Record<string, PyValue>;

const required = (...names: string[]): Param[] => names.map((name) => ({ name, hasDefault: false }));

const fn = (params: Param[], run: (db: TelecomUserDB, args: Args) => PyValue): Fn => ({ params, run });

/** A set-up step that leaves a broken state: it checks its own effect, as the reference's `assert` does. */
const ensure = (condition: boolean): void => {
  if (!condition) throw new Error('assertion failed while setting up the device');
};

/** Flips a setting through its toggle until it has the wanted value (the reference's `turn_*`). */
const turn = (toggle: (db: TelecomUserDB) => boolean, wanted: boolean, message: string): Fn =>
  fn([], (db) => {
    if (toggle(db) !== wanted) toggle(db);
    return message;
  });

/** `expected == actual` on a device reading. */
const expectation = (read: (db: TelecomUserDB) => PyValue): Fn =>
  fn(required('expected_status'), (db, { expected_status }) => pyEquals(read(db), expected_status!));

export const telecomUserFunctions: Readonly<Record<string, Fn>> = {
  set_user_info: fn(required('name', 'phone_number'), ({ surroundings }, { name, phone_number }) => {
    (surroundings as { name: PyValue }).name = name!;
    (surroundings as { phone_number: PyValue }).phone_number = phone_number!;
    return null;
  }),
  set_user_location: fn(required('abroad'), ({ surroundings }, { abroad }) => {
    (surroundings as { is_abroad: PyValue }).is_abroad = abroad!;
    return null;
  }),
  turn_airplane_mode_on: turn(toggleAirplaneMode, true, 'Airplane Mode is now ON.'),
  turn_airplane_mode_off: turn(toggleAirplaneMode, false, 'Airplane Mode is now OFF.'),
  unseat_sim_card: fn([], (db) => {
    db.device.sim_card_missing = true;
    simulateNetworkSearch(db);
    ensure(simStatus(db.device) === 'missing');
    return 'SIM card un-seated successfully.';
  }),
  lock_sim_card: fn(required('mode'), (db, { mode }) => {
    if (mode === 'pin') db.device.sim_card_status = 'locked_pin';
    else if (mode === 'puk') db.device.sim_card_status = 'locked_puk';
    simulateNetworkSearch(db);
    return `SIM card locked successfully in ${pyStr(mode)} mode.`;
  }),
  // Unlike the toggle, no network search.
  turn_data_on: fn([], (db) => {
    db.device.data_enabled = true;
    return 'Data connection restored.';
  }),
  turn_data_off: turn(toggleData, false, 'Data connection broken.'),
  turn_roaming_on: turn(toggleRoaming, true, 'Data Roaming is now ON.'),
  turn_roaming_off: turn(toggleRoaming, false, 'Data Roaming is now OFF.'),
  turn_data_saver_mode_on: turn((db) => toggleDataSaver(db.device), true, 'Data Saver Mode is now ON.'),
  turn_data_saver_mode_off: turn((db) => toggleDataSaver(db.device), false, 'Data Saver Mode is now OFF.'),
  break_apn_settings: fn([], (db) => {
    apnSettings(db.device, 'apn_name').apn_name = 'broken';
    simulateNetworkSearch(db);
    ensure(db.device.network_connection_status === 'no_service');
    return 'APN settings broken. Please call reset_apn_settings() to fix.';
  }),
  break_apn_mms_setting: fn([], (db) => {
    apnSettings(db.device, 'mmsc_url').mmsc_url = null;
    ensure(!canSendMms(db));
    return 'APN MMS setting broken. Please call reset_apn_settings() to fix.';
  }),
  break_vpn: fn([], (db) => {
    connectVpn(db.device);
    db.device.vpn_details!.server_performance = 'poor';
    return 'VPN connection broken.';
  }),
  set_wifi_calling: {
    params: [...required('enabled'), { name: 'mms_over_wifi', hasDefault: true, default: null }],
    run: ({ device }, { enabled, mms_over_wifi }) => {
      if (!pyEquals(device.wifi_calling_enabled, enabled!)) toggleWifiCalling(device);
      let message = `Wi-Fi Calling is now ${truthy(enabled) ? 'ON' : 'OFF'}.`;
      if (mms_over_wifi !== null && mms_over_wifi !== undefined) {
        (device as { wifi_calling_mms_over_wifi: PyValue }).wifi_calling_mms_over_wifi = mms_over_wifi;
        message += `\nMMS over Wi-Fi is now ${truthy(mms_over_wifi) ? 'ON' : 'OFF'}.`;
      }
      return message;
    },
  },
  remove_app_permission: fn(required('app_name', 'permission'), ({ device }, { app_name, permission }) => {
    const app = pyDictGet(device.app_statuses, app_name);
    const name = requireStr(permission, 'lower').toLowerCase();
    if (!app) return [false, `App '${pyStr(app_name)}' not found. Cannot remove permission.`];
    if (!isPermission(name)) return [false, `Permission '${name}' not tracked for app '${pyStr(app_name)}'.`];
    app.permissions[name] = false;
    return [true, `Permission '${name}' removed from app '${pyStr(app_name)}'.`];
  }),
  simulate_network_search: fn([], (db) => {
    simulateNetworkSearch(db);
    return null;
  }),
  assert_airplane_mode_status: expectation(({ device }) => device.airplane_mode),
  assert_service_status: fn(required('expected_status'), ({ device }, { expected_status }) => {
    const parsed = NetworkStatusSchema.safeParse(expected_status);
    if (!parsed.success) throw new ToolError(`${pyRepr(expected_status)} is not a valid NetworkStatus`);
    return device.network_connection_status === parsed.data;
  }),
  assert_mobile_data_status: expectation(mobileDataWorking),
  assert_mobile_roaming_status: expectation(({ device }) => device.roaming_enabled),
  assert_mobile_data_saver_mode_status: expectation(({ device }) => device.data_saver_mode),
  assert_internet_speed: {
    params: [...required('expected_speed'), { name: 'expected_desc', hasDefault: true, default: null }],
    run: (db, { expected_speed, expected_desc }) => {
      const result = speedTest(db);
      const fast = (result ? result.speed.value : 0) >= toNumber(expected_speed as PyNumber);
      if (expected_desc === null || expected_desc === undefined) return fast;
      const description = result ? result.description : 'No Connection';
      return fast && description.toLowerCase() === requireStr(expected_desc, 'lower').toLowerCase();
    },
  },
  assert_internet_not_excellent: fn([], (db) => speedTest(db)?.description !== 'Excellent'),
  assert_can_send_mms: expectation(canSendMms),
  assert_mobile_data_usage_exceeded: expectation(({ surroundings }) => surroundings.mobile_data_usage_exceeded),
};
