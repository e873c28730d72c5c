// Telecom user tools: what the user can see and do on their phone, in the reference's registration order,
// plus the non-tool methods tasks call to set up and check the device
// (reference: src/tau2/domains/telecom/user_tools.py).
import { formatFixed, isPlainDict, pyRepr, pyStr, pyTypeName } from '../../src/core/py/index.ts';
import type { PyJsonable, PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import type { ToolSpec } from '../../src/core/environment/toolkit.ts';
import type { ToolParameters } from '../../src/core/llm/tool-schema.ts';
import {
  apnSettings,
  canSendMms,
  connectVpn,
  disconnectVpn,
  rebootDevice,
  simStatus,
  simulateNetworkSearch,
  speedTest,
  statusBar,
  toggleAirplaneMode,
  toggleData,
  toggleDataSaver,
  toggleRoaming,
  toggleWifi,
  toggleWifiCalling,
} from './device.ts';
import type { SpeedDescription } from './device.ts';
import { APNSettingsSchema, NetworkModePreferenceSchema } from './user_data_model.ts';
import type { AppPermissions, TelecomUserDB } from './user_data_model.ts';
import { requireStr } from '../../src/core/environment/python-args.ts';
import { pyDictGet } from '../../src/core/environment/python-dict.ts';
import { PERMISSIONS, isPermission } from './permissions.ts';
import { telecomUserFunctions } from './user_functions.ts';

const NO_PARAMETERS: ToolParameters = { properties: {}, title: 'parameters', type: 'object' };
const onOff = (on: boolean): string => (on ? 'ON' : 'OFF');
const withStatusBar = (db: TelecomUserDB, update: string): string => `${update}\nStatus Bar: ${statusBar(db.device)}`;

/** A device action that reports its effect followed by the status bar. */
const action = (description: string, run: (db: TelecomUserDB) => string): ToolSpec<TelecomUserDB> => ({
  type: 'write',
  description,
  parameters: NO_PARAMETERS,
  run: (db) => withStatusBar(db, run(db)),
});

const check = (description: string, run: (db: TelecomUserDB) => string): ToolSpec<TelecomUserDB> => ({
  type: 'read',
  description,
  parameters: NO_PARAMETERS,
  run,
});

const APP_NAME = { title: 'App Name', type: 'string' } as const;
const grantedPermissions = (permissions: AppPermissions): string[] => PERMISSIONS.filter((p) => permissions[p]);

const SIM_MESSAGES = {
  active: 'Your SIM card is active and working.',
  missing: 'No SIM card detected in the phone.',
  locked_pin: 'The SIM card is locked with a PIN code.',
  locked_puk: 'The SIM card is locked with a PUK code.',
} as const;

const SPEED_ADVICE: Readonly<Record<SpeedDescription, string>> = {
  'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
  Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
  Fair: 'Connection is okay for web browsing and some standard definition streaming.',
  Good: 'Connection is good for most activities, including HD streaming.',
  Excellent: 'Connection is very fast.',
};

/** A str-Enum member as Python's `repr()` shows it inside a dict repr. */
const enumMember = (enumName: string, value: string): PyJsonable => ({
  toPyJson: () => value,
  toPyRepr: () => `<${enumName}.${value.toUpperCase()}: ${pyRepr(value)}>`,
});

const NETWORK_MODES = NetworkModePreferenceSchema.options;
const isNetworkMode = (mode: string): boolean => (NETWORK_MODES as readonly string[]).includes(mode);

const optionalStr = (title: string, defaultValue: string | null, description: string) => ({
  anyOf: [{ type: 'string' }, { type: 'null' }],
  default: defaultValue,
  description,
  title,
});

const SET_APN_PARAMETERS: ToolParameters = {
  $defs: {
    APNNames: { enum: ['internet', 'broken'], title: 'APNNames', type: 'string' },
    APNSettings: {
      additionalProperties: false,
      description: 'Represents the configuration for a single Access Point Name (APN).',
      properties: {
        apn_name: { $ref: '#/$defs/APNNames', default: 'internet', description: 'The name identifier for the APN connection.' },
        reset_at_reboot: {
          default: false,
          description: 'Whether the APN settings will be reset at the next reboot.',
          title: 'Reset At Reboot',
          type: 'boolean',
        },
        mms_apn: optionalStr('Mms Apn', 'mms', 'Specific APN name used for MMS traffic, if different from general data.'),
        mmsc_url: optionalStr(
          'Mmsc Url',
          'http://mms.carrier.com/mms/wapenc',
          'The URL of the Multimedia Messaging Service Center (MMSC). Crucial for MMS.',
        ),
        mms_proxy: optionalStr('Mms Proxy', null, 'The proxy server address required for MMS traffic on some networks.'),
        mms_port: {
          anyOf: [{ type: 'integer' }, { type: 'null' }],
          default: null,
          description: 'The proxy server port required for MMS traffic on some networks.',
          title: 'Mms Port',
        },
      },
      title: 'APNSettings',
      type: 'object',
    },
  },
  properties: {
    apn_settings: { anyOf: [{ $ref: '#/$defs/APNSettings' }, { additionalProperties: true, type: 'object' }], title: 'Apn Settings' },
  },
  required: ['apn_settings'],
  title: 'parameters',
  type: 'object',
};

export const telecomUserTools = defineToolkit<TelecomUserDB>({
  className: 'TelecomUserTools',
  tools: {
    check_status_bar: check(
      "Shows what icons are currently visible in your phone's status bar (the area at the top of the screen). Displays network signal strength, mobile data status (enabled, disabled, data saver), Wi-Fi status, and battery level.",
      (db) => `Status Bar: ${statusBar(db.device)}`,
    ),
    check_network_status: check(
      "Checks your phone's connection status to cellular networks and Wi-Fi. Shows airplane mode status, signal strength, network type, whether mobile data is enabled, and whether data roaming is enabled.",
      ({ device }) => {
        const lines = [
          `Airplane Mode: ${onOff(device.airplane_mode)}`,
          `SIM Card Status: ${simStatus(device)}`,
          `Cellular Connection: ${device.network_connection_status}`,
          `Cellular Signal: ${device.network_signal_strength}`,
          `Cellular Network Type: ${device.network_technology_connected}`,
          `Mobile Data Enabled: ${device.data_enabled ? 'Yes' : 'No'}`,
          `Data Roaming Enabled: ${device.roaming_enabled ? 'Yes' : 'No'}`,
          `Wi-Fi Radio: ${onOff(device.wifi_enabled)}`,
          `Wi-Fi Connected: ${device.wifi_connected ? 'Yes' : 'No'}`,
        ];
        if (device.wifi_connected) lines.push(`Connected Wi-Fi Network: ${pyStr(device.wifi_ssid)}`);
        return lines.join('\n');
      },
    ),
    check_network_mode_preference: check(
      'Shows the current network mode preference.',
      ({ device }) => {
        const mode: PyValue = device.network_mode_preference;
        if (typeof mode !== 'string') throw new ToolError(`'${pyTypeName(mode)}' object has no attribute 'value'`);
        return `Network Mode Preference: ${mode}`;
      },
    ),
    set_network_mode_preference: {
      type: 'write',
      description:
        'Changes the type of cellular network your phone prefers to connect to (e.g., 5G, LTE/4G, 3G). Higher-speed networks (LTE/5G) provide faster data but may use more battery.',
      parameters: {
        $defs: {
          NetworkModePreference: { enum: [...NETWORK_MODES], title: 'NetworkModePreference', type: 'string' },
        },
        properties: {
          mode: { anyOf: [{ $ref: '#/$defs/NetworkModePreference' }, { type: 'string' }], title: 'Mode' },
        },
        required: ['mode'],
        title: 'parameters',
        type: 'object',
      },
      run: (db, { mode }) => {
        const refused = (shown: string) =>
          withStatusBar(db, `Failed to set network mode: '${shown}' is not a valid option. Please use one of: ${NETWORK_MODES.join(', ')}`);
        if (typeof mode === 'string' && !isNetworkMode(mode)) return refused(mode);
        // Only a str is converted: any other value is stored as given and searched with (4G fallback); None
        // then reads as a refusal, and anything else fails reading its `.value`, after the change.
        (db.device as { network_mode_preference: PyValue | undefined }).network_mode_preference = mode;
        simulateNetworkSearch(db);
        if (mode === null) return refused('None');
        if (typeof mode !== 'string') throw new ToolError(`'${pyTypeName(mode)}' object has no attribute 'value'`);
        return withStatusBar(db, `Preferred Network Mode set to: ${mode}`);
      },
    },
    run_speed_test: check(
      'Measures your current internet connection speed (download speed). Provides information about connection quality and what activities it can support.',
      (db) => {
        const result = speedTest(db);
        if (result === null) return 'Speed test failed: No Connection.';
        const { speed, description } = result;
        return `Speed Test Result: ${formatFixed(speed, 2)} Mbps (${description}). ${SPEED_ADVICE[description]}`;
      },
    ),
    toggle_airplane_mode: action(
      'Toggles Airplane Mode ON or OFF. When ON, it disconnects all wireless communications including cellular, Wi-Fi, and Bluetooth.\n\nReturns the new state of airplane_mode.',
      (db) => `Airplane Mode is now ${onOff(toggleAirplaneMode(db))}.`,
    ),
    check_sim_status: check(
      'Checks if your SIM card is working correctly and displays its current status. Shows if the SIM is active, missing, or locked with a PIN or PUK code.',
      ({ device }) => SIM_MESSAGES[simStatus(device)],
    ),
    reseat_sim_card: action(
      'Simulates removing and reinserting your SIM card. This can help resolve recognition issues.',
      (db) => {
        db.device.sim_card_missing = false;
        simulateNetworkSearch(db);
        return 'SIM card re-seated successfully.';
      },
    ),
    toggle_data: action(
      "Toggles your phone's mobile data connection ON or OFF. Controls whether your phone can use cellular data for internet access when Wi-Fi is unavailable.\n\nReturns the new data connection status.",
      (db) => `Mobile Data is now ${onOff(toggleData(db))}.`,
    ),
    toggle_roaming: action(
      "Toggles Data Roaming ON or OFF. When ON, your phone can use data networks in areas outside your carrier's coverage.\n\nReturns the new data roaming status.",
      (db) => `Data Roaming is now ${onOff(toggleRoaming(db))}.`,
    ),
    check_data_restriction_status: check(
      'Checks if your phone has any data-limiting features active. Shows if Data Saver mode is on.',
      ({ device }) => (device.data_saver_mode ? 'Data Saver mode is ON (limits data usage).' : 'Data Saver mode is OFF.'),
    ),
    toggle_data_saver_mode: action(
      'Toggles Data Saver mode ON or OFF. When ON, it reduces data usage, which may affect data speed.\n\nReturns the new data saver mode status.',
      (db) => `Data Saver Mode is now ${onOff(toggleDataSaver(db.device))}.`,
    ),
    check_apn_settings: check(
      "Checks the technical APN settings your phone uses to connect to your carrier's mobile data network. Shows current APN name and MMSC URL for picture messaging.",
      ({ device }) => {
        const apn = apnSettings(device, 'model_copy');
        return `Current APN Name: ${apn.apn_name}\nMMSC URL (for picture messages): ${apn.mmsc_url || 'Not Set'}\n(These are technical settings, usually best left unchanged.)`;
      },
    ),
    set_apn_settings: {
      type: 'write',
      description: 'Sets the APN settings for the phone.',
      parameters: SET_APN_PARAMETERS,
      run: (db, { apn_settings }) => {
        if (!isPlainDict(apn_settings)) {
          // Only a dict is converted: anything else is stored as given, then reading its name fails.
          (db.device as { active_apn_settings: PyValue | undefined }).active_apn_settings = apn_settings;
          return apnSettings(db.device, 'apn_name'); // throws: what was stored is not a settings model
        }
        const settings = constructModel('APNSettings', APNSettingsSchema, apn_settings);
        db.device.active_apn_settings = settings;
        simulateNetworkSearch(db);
        return withStatusBar(db, `APN settings set to: ${settings.apn_name}`);
      },
    },
    reset_apn_settings: action('Resets your APN settings to the default settings.', (db) => {
      // Only scheduled: the defaults come back at the next reboot.
      apnSettings(db.device, 'reset_at_reboot').reset_at_reboot = true;
      simulateNetworkSearch(db);
      return 'APN settings will reset at reboot.';
    }),
    check_wifi_status: check(
      "Checks your Wi-Fi connection status. Shows if Wi-Fi is turned on, which network you're connected to (if any), and the signal strength.",
      ({ device }) => {
        if (!device.wifi_enabled) return 'Wi-Fi is turned OFF.';
        if (device.wifi_connected) {
          return `Wi-Fi is ON and connected to '${pyStr(device.wifi_ssid)}'. Signal strength: ${device.wifi_signal_strength}.`;
        }
        return 'Wi-Fi is ON but not connected to any network.';
      },
    ),
    toggle_wifi: action(
      "Toggles your phone's Wi-Fi radio ON or OFF. Controls whether your phone can discover and connect to wireless networks for internet access.\n\nReturns the new Wi-Fi status.",
      (db) => {
        const state = toggleWifi(db.device);
        return state === null ? 'Cannot change Wi-Fi settings while Airplane Mode is ON.' : `Wi-Fi is now ${onOff(state)}.`;
      },
    ),
    check_wifi_calling_status: check(
      'Checks if Wi-Fi Calling is enabled on your device. This feature allows you to make and receive calls over a Wi-Fi network instead of using the cellular network.',
      ({ device }) => `Wi-Fi Calling is currently turned ${onOff(device.wifi_calling_enabled)}.`,
    ),
    toggle_wifi_calling: action(
      'Toggles Wi-Fi Calling ON or OFF. This feature allows you to make and receive calls over Wi-Fi instead of the cellular network, which can help in areas with weak cellular signal.\n\nReturns the new Wi-Fi Calling status.',
      (db) => `Wi-Fi Calling is now ${onOff(toggleWifiCalling(db.device))}.`,
    ),
    check_vpn_status: check(
      "Checks if you're using a VPN (Virtual Private Network) connection. Shows if a VPN is active, connected, and displays any available connection details.",
      ({ device }) => {
        if (device.vpn_connected) {
          const details = device.vpn_details;
          if (!details) return 'VPN is ON and connected (no specific details available).';
          const shown = {
            server_address: details.server_address,
            protocol: details.protocol,
            server_performance: enumMember('PerformanceLevel', details.server_performance),
          };
          return `VPN is ON and connected. Details: ${pyRepr(shown)}`;
        }
        return device.vpn_enabled_setting
          ? 'VPN is turned ON in settings, but currently not connected.'
          : 'VPN is turned OFF.';
      },
    ),
    connect_vpn: {
      type: 'write',
      description: 'Connects to your VPN (Virtual Private Network).',
      parameters: NO_PARAMETERS,
      run: (db) => (connectVpn(db.device) === null ? 'VPN already connected.' : withStatusBar(db, 'VPN connected successfully.')),
    },
    disconnect_vpn: action(
      'Disconnects any active VPN (Virtual Private Network) connection. Stops routing your internet traffic through a VPN server, which might affect connection speed or access to content.',
      (db) => (disconnectVpn(db.device) ? 'VPN disconnected successfully.' : 'No active VPN connection to disconnect.'),
    ),
    check_installed_apps: check(
      'Returns the name of all installed apps on the phone.',
      ({ device }) => `The following apps are installed on the phone: ${Object.keys(device.app_statuses).join(', ')}`,
    ),
    check_app_status: {
      type: 'read',
      description:
        'Checks detailed information about a specific app. Shows its permissions and background data usage settings.',
      parameters: { properties: { app_name: APP_NAME }, required: ['app_name'], title: 'parameters', type: 'object' },
      run: ({ device }, { app_name }) => {
        const app = pyDictGet(device.app_statuses, app_name);
        if (!app) return `App '${pyStr(app_name)}' not found on this phone.`;
        const granted = grantedPermissions(app.permissions);
        const lines = [`Status for App: ${pyStr(app_name)}`];
        if (granted.length === 0) lines.push(' - Permissions: None granted.');
        else lines.push(' - Permissions Granted:', ...granted.map((p) => `   - ${p}`));
        return lines.join('\n');
      },
    },
    check_app_permissions: {
      type: 'read',
      description:
        'Checks what permissions a specific app currently has. Shows if the app has access to features like storage, camera, location, etc.',
      parameters: { properties: { app_name: APP_NAME }, required: ['app_name'], title: 'parameters', type: 'object' },
      run: ({ device }, { app_name }) => {
        const app = pyDictGet(device.app_statuses, app_name);
        if (!app) return `App '${pyStr(app_name)}' not found on this phone.`;
        const granted = grantedPermissions(app.permissions);
        if (granted.length === 0) return `App '${pyStr(app_name)}' currently has no permissions granted.`;
        return `App '${pyStr(app_name)}' has permission for: ${granted.join(', ')}.`;
      },
    },
    grant_app_permission: {
      type: 'write',
      description:
        'Gives a specific permission to an app (like access to storage, camera, or location). Required for some app functions to work properly.',
      parameters: {
        properties: {
          app_name: { description: 'The name of the app to grant the permission to.', ...APP_NAME },
          permission: {
            description: 'The permission to grant, should be lowercase.',
            title: 'Permission',
            type: 'string',
          },
        },
        required: ['app_name', 'permission'],
        title: 'parameters',
        type: 'object',
      },
      run: (db, { app_name, permission }) => {
        const app = pyDictGet(db.device.app_statuses, app_name);
        const name = requireStr(permission, 'lower').toLowerCase();
        const appText = pyStr(app_name);
        if (!app) return withStatusBar(db, `Error. App '${appText}' not found. Cannot grant permission.`);
        if (!isPermission(name)) {
          return withStatusBar(
            db,
            `Error. Permission '${name}' not tracked for app '${appText}', available permissions: ${pyRepr([...PERMISSIONS])}`,
          );
        }
        app.permissions[name] = true;
        return withStatusBar(db, `Success. Permission '${name}' granted to app '${appText}'.`);
      },
    },
    can_send_mms: check('Checks if the default messaging app can send MMS messages.', (db) =>
      canSendMms(db) ? 'Your messaging app can send MMS messages.' : 'Your messaging app cannot send MMS messages.',
    ),
    reboot_device: action(
      'Restarts your phone completely. This can help resolve many temporary software glitches by refreshing all running services and connections.',
      rebootDevice,
    ),
    check_payment_request: check('Checks if the agent has sent you a payment request.', ({ surroundings }) => {
      const request = surroundings.payment_request;
      if (request === null) return 'No payment request has been made.';
      return `You have a payment request for bill ${request.bill_id} of ${pyStr(request.amount_due)} USD.`;
    }),
    make_payment: {
      type: 'write',
      description: 'Makes a payment for the bill that the agent has sent you.',
      parameters: NO_PARAMETERS,
      run: ({ surroundings }) => {
        const request = surroundings.payment_request;
        if (request === null) return 'You do not have a payment request.';
        // The bill itself becomes Paid at the next synchronisation with the network.
        request.paid = true;
        return `Payment of ${pyStr(request.amount_due)} USD has been made for bill ${request.bill_id}.`;
      },
    },
  },
  functions: telecomUserFunctions,
});
