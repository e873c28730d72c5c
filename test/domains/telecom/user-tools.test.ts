// Telecom user tools (the phone) through the production Environment: the reference's own tests
// (tests/test_domains/test_telecom/test_user_tools_telecom.py), the verified outputs F45–F70 of the spec's
// Appendix B, the exact speed-test strings, the tool schemas of Appendix A.3 and the set-up functions tasks use.
import { describe, expect, it } from 'vitest';
import { dumpsPy, pyDictHash } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { Environment } from '../../../src/core/environment/environment.ts';
import { mutateDb } from '../../../src/core/environment/db-state.ts';
import { telecomUserTools } from '../../../domains/telecom/user_tools.ts';
import { editUserDb, telecomEnv, user, userDb, userFunction } from './helpers.ts';

const say = (env: Environment, name: string, args: Record<string, PyValue> = {}): string => {
  const message = user(env, name, args);
  expect(message.error, `${name}: ${message.content}`).toBe(false);
  return message.content!;
};

/** The reference tests' fixture: the default phone, messaging without permissions, browser with network+storage. */
const fixture = async (): Promise<Environment> =>
  editUserDb(await telecomEnv(), (db) => {
    db.device.app_statuses.messaging!.permissions = { sms: false, storage: false, phone: false, network: false };
    db.device.app_statuses.browser!.permissions = { sms: false, storage: true, phone: false, network: true };
  });

describe('reference tests: test_user_tools_telecom.py', () => {
  it('the default status bar shows the battery; in airplane mode it shows the plane', async () => {
    const env = await fixture();
    expect(say(env, 'check_status_bar')).toBe('Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔋 80%');
    const plane = editUserDb(env, (db) => void (db.device.airplane_mode = true));
    expect(say(plane, 'check_status_bar')).toBe('Status Bar: ✈️ Airplane Mode | 🔋 80%');
  });

  it('toggle_airplane_mode flips the mode and back', async () => {
    const env = await fixture();
    expect(say(env, 'toggle_airplane_mode')).toContain('Airplane Mode is now ON.');
    expect(userDb(env).device.airplane_mode).toBe(true);
    say(env, 'toggle_airplane_mode');
    expect(userDb(env).device.airplane_mode).toBe(false);
  });

  it('turn_airplane_mode_on / _off set the mode whatever it was', async () => {
    const env = await fixture();
    expect(userFunction(env, 'turn_airplane_mode_on')).toBe('Airplane Mode is now ON.');
    expect(userFunction(env, 'turn_airplane_mode_on')).toBe('Airplane Mode is now ON.');
    expect(say(env, 'check_status_bar')).toContain('✈️ Airplane Mode');
    expect(userFunction(env, 'turn_airplane_mode_off')).toBe('Airplane Mode is now OFF.');
    expect(userDb(env).device.airplane_mode).toBe(false);
    expect(say(env, 'check_status_bar')).not.toContain('✈️ Airplane Mode');
  });

  it('check_network_status lists airplane mode, SIM and signal', async () => {
    const status = say(await fixture(), 'check_network_status');
    expect(status).toContain('Airplane Mode: OFF');
    expect(status).toContain('SIM Card Status: active');
    expect(status).toContain('Cellular Signal: good');
  });

  it('check_sim_status: active, missing, locked with a PIN (and PUK)', async () => {
    const env = await fixture();
    expect(say(env, 'check_sim_status')).toBe('Your SIM card is active and working.');
    expect(say(editUserDb(env, (db) => void (db.device.sim_card_missing = true)), 'check_sim_status')).toBe('No SIM card detected in the phone.');
    expect(say(editUserDb(env, (db) => void (db.device.sim_card_status = 'locked_pin')), 'check_sim_status')).toBe(
      'The SIM card is locked with a PIN code.',
    );
    expect(say(editUserDb(env, (db) => void (db.device.sim_card_status = 'locked_puk')), 'check_sim_status')).toBe(
      'The SIM card is locked with a PUK code.',
    );
  });

  it('reseat_sim_card after unseat_sim_card finds the network again', async () => {
    const env = await fixture();
    expect(userFunction(env, 'unseat_sim_card')).toBe('SIM card un-seated successfully.');
    expect(say(env, 'check_sim_status')).toBe('No SIM card detected in the phone.');
    expect(userDb(env).device.network_connection_status).toBe('no_service');
    expect(say(env, 'reseat_sim_card')).toBe(
      'SIM card re-seated successfully.\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%',
    );
    expect(userDb(env).device.network_connection_status).toBe('connected');
  });

  it('toggle_data and toggle_roaming flip their settings', async () => {
    const env = await fixture();
    expect(say(env, 'toggle_data')).toContain('Mobile Data is now OFF');
    expect(userDb(env).device.data_enabled).toBe(false);
    expect(say(env, 'toggle_roaming')).toContain('Data Roaming is now ON');
    expect(userDb(env).device.roaming_enabled).toBe(true);
  });

  it('set_network_mode_preference(4g_only) switches to 4G; an invalid mode is refused in the reply', async () => {
    const env = await fixture();
    expect(say(env, 'set_network_mode_preference', { mode: '4g_only' })).toContain('Preferred Network Mode set to: 4g_only');
    expect(userDb(env).device.network_mode_preference).toBe('4g_only');
    expect(userDb(env).device.network_technology_connected).toBe('4G');
    expect(say(env, 'set_network_mode_preference', { mode: 'invalid_mode' })).toContain('Failed to set network mode');
  });

  it('check_apn_settings shows the APN name and MMSC URL', async () => {
    expect(say(await fixture(), 'check_apn_settings')).toBe(
      'Current APN Name: internet\nMMSC URL (for picture messages): http://mms.carrier.com/mms/wapenc\n(These are technical settings, usually best left unchanged.)',
    );
  });

  it('set_apn_settings with a dict replaces the APN and searches the network', async () => {
    const env = await fixture();
    const reply = say(env, 'set_apn_settings', {
      apn_settings: { apn_name: 'internet', mmsc_url: 'http://mms.new.com', mms_apn: 'mms', reset_at_reboot: false },
    });
    expect(reply).toBe('APN settings set to: internet\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%');
    expect(userDb(env).device.active_apn_settings).toMatchObject({ apn_name: 'internet', mmsc_url: 'http://mms.new.com' });
    expect(userDb(env).device.network_connection_status).toBe('connected');
  });

  it('reset_apn_settings only schedules the reset; reboot_device restores the defaults', async () => {
    const env = editUserDb(await fixture(), (db) => void (db.device.active_apn_settings.mmsc_url = 'http://mms.new.com'));
    expect(say(env, 'reset_apn_settings')).toContain('APN settings will reset at reboot');
    expect(userDb(env).device.active_apn_settings).toMatchObject({ reset_at_reboot: true, mmsc_url: 'http://mms.new.com' });
    expect(say(env, 'reboot_device')).toBe(
      'Resetting APN settings...\nRestarting network services...\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%',
    );
    expect(userDb(env).device.active_apn_settings).toEqual({
      apn_name: 'internet',
      reset_at_reboot: false,
      mms_apn: 'mms',
      mmsc_url: 'http://mms.carrier.com/mms/wapenc',
      mms_proxy: null,
      mms_port: null,
    });
  });

  it('check_wifi_status: off, on but not connected, connected with signal', async () => {
    const env = await fixture();
    expect(say(env, 'check_wifi_status')).toBe('Wi-Fi is turned OFF.');
    const on = editUserDb(env, (db) => void (db.device.wifi_enabled = true));
    expect(say(on, 'check_wifi_status')).toBe('Wi-Fi is ON but not connected to any network.');
    const connected = editUserDb(on, (db) => {
      Object.assign(db.device, { wifi_connected: true, wifi_ssid: 'MyHomeWiFi', wifi_signal_strength: 'good' });
    });
    expect(say(connected, 'check_wifi_status')).toBe("Wi-Fi is ON and connected to 'MyHomeWiFi'. Signal strength: good.");
    expect(say(connected, 'check_status_bar')).toBe('Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 📡 Connected to MyHomeWiFi | 🔋 80%');
  });

  it('toggle_wifi flips Wi-Fi, but not while airplane mode is on', async () => {
    const env = await fixture();
    expect(say(env, 'toggle_wifi')).toContain('Wi-Fi is now ON');
    expect(userDb(env).device.wifi_enabled).toBe(true);
    const plane = editUserDb(env, (db) => Object.assign(db.device, { airplane_mode: true, wifi_enabled: false }));
    expect(say(plane, 'toggle_wifi')).toBe('Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 80%');
    expect(userDb(plane).device.wifi_enabled).toBe(false);
  });

  it('check_vpn_status: off, enabled but not connected, connected with the details repr', async () => {
    const env = await fixture();
    expect(say(env, 'check_vpn_status')).toBe('VPN is turned OFF.');
    const enabled = editUserDb(env, (db) => void (db.device.vpn_enabled_setting = true));
    expect(say(enabled, 'check_vpn_status')).toBe('VPN is turned ON in settings, but currently not connected.');
    const connected = editUserDb(enabled, (db) => {
      db.device.vpn_connected = true;
      db.device.vpn_details = { server_address: '1.2.3.4', protocol: 'TestVPN', server_performance: 'unknown' };
    });
    expect(say(connected, 'check_vpn_status')).toBe(
      "VPN is ON and connected. Details: {'server_address': '1.2.3.4', 'protocol': 'TestVPN', 'server_performance': <PerformanceLevel.UNKNOWN: 'unknown'>}",
    );
  });

  it('connect_vpn / disconnect_vpn, twice each', async () => {
    const env = await fixture();
    expect(say(env, 'connect_vpn')).toContain('VPN connected successfully');
    expect(userDb(env).device.vpn_details).toEqual({ server_address: '192.168.1.1', protocol: 'OpenVPN', server_performance: 'excellent' });
    expect(say(env, 'connect_vpn')).toBe('VPN already connected.');
    expect(say(env, 'disconnect_vpn')).toContain('VPN disconnected successfully');
    expect(userDb(env).device).toMatchObject({ vpn_connected: false, vpn_details: null });
    expect(say(env, 'disconnect_vpn')).toContain('No active VPN connection to disconnect');
  });

  it('check_installed_apps lists the apps', async () => {
    expect(say(await fixture(), 'check_installed_apps')).toBe('The following apps are installed on the phone: messaging, browser');
  });

  it('check_app_status: no permissions, granted permissions, unknown app', async () => {
    const env = await fixture();
    expect(say(env, 'check_app_status', { app_name: 'messaging' })).toBe('Status for App: messaging\n - Permissions: None granted.');
    expect(say(env, 'check_app_status', { app_name: 'browser' })).toBe(
      'Status for App: browser\n - Permissions Granted:\n   - storage\n   - network',
    );
    expect(say(env, 'check_app_status', { app_name: 'nonexistent_app' })).toBe("App 'nonexistent_app' not found on this phone.");
  });

  it('check_app_permissions: none, then storage', async () => {
    const env = await fixture();
    expect(say(env, 'check_app_permissions', { app_name: 'messaging' })).toBe("App 'messaging' currently has no permissions granted.");
    const storage = editUserDb(env, (db) => void (db.device.app_statuses.messaging!.permissions.storage = true));
    expect(say(storage, 'check_app_permissions', { app_name: 'messaging' })).toBe("App 'messaging' has permission for: storage.");
  });

  it('grant_app_permission grants; unknown permission and unknown app are refused in the reply', async () => {
    const env = await fixture();
    expect(say(env, 'grant_app_permission', { app_name: 'messaging', permission: 'STORAGE' })).toBe(
      "Success. Permission 'storage' granted to app 'messaging'.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔋 80%",
    );
    expect(userDb(env).device.app_statuses.messaging!.permissions.storage).toBe(true);
    expect(say(env, 'grant_app_permission', { app_name: 'messaging', permission: 'invalid_permission' })).toContain(
      "Permission 'invalid_permission' not tracked",
    );
    expect(say(env, 'grant_app_permission', { app_name: 'nonexistent_app', permission: 'storage' })).toContain(
      "Error. App 'nonexistent_app' not found. Cannot grant permission.",
    );
  });

  it('remove_app_permission removes (also an already removed one) and answers a (success, message) tuple', async () => {
    const env = await fixture();
    expect(userFunction(env, 'remove_app_permission', { app_name: 'browser', permission: 'network' })).toBeUndefined();
    expect(userDb(env).device.app_statuses.browser!.permissions.network).toBe(false);
    userFunction(env, 'remove_app_permission', { app_name: 'browser', permission: 'network' });
    expect(userDb(env).device.app_statuses.browser!.permissions.network).toBe(false);
    // The tuple itself, as the method returns it (run on a draft of the phone's state).
    const run = (args: Record<string, PyValue>) =>
      mutateDb(userDb(env), (db) => telecomUserTools.functions.remove_app_permission!.run(db, args)).result;
    expect(run({ app_name: 'browser', permission: 'storage' })).toEqual([
      true,
      "Permission 'storage' removed from app 'browser'.",
    ]);
    expect(run({ app_name: 'nope', permission: 'storage' })).toEqual([
      false,
      "App 'nope' not found. Cannot remove permission.",
    ]);
  });

  it('reboot_device resets a scheduled APN and restarts network services', async () => {
    const env = editUserDb(await fixture(), (db) => void (db.device.active_apn_settings.reset_at_reboot = true));
    expect(say(env, 'reboot_device')).toContain('Resetting APN settings...');
    expect(userDb(env).device.active_apn_settings.reset_at_reboot).toBe(false);
    expect(say(env, 'reboot_device')).toBe('Restarting network services...\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%');
    expect(userDb(env).device.network_connection_status).toBe('connected');
  });

  describe('can_send_mms', () => {
    const good = async () =>
      editUserDb(await fixture(), (db) => {
        Object.assign(db.device, { network_connection_status: 'connected', data_enabled: true, network_technology_connected: '4G' });
        db.device.active_apn_settings.mmsc_url = 'http://mms.example.com';
        Object.assign(db.device.app_statuses.messaging!.permissions, { sms: true, storage: true });
      });
    const CAN = 'Your messaging app can send MMS messages.';
    const CANNOT = 'Your messaging app cannot send MMS messages.';

    it('works in the good state', async () => {
      expect(say(await good(), 'can_send_mms')).toBe(CAN);
    });

    it.each<[string, (db: Parameters<Parameters<typeof editUserDb>[1]>[0]) => void]>([
      ['no service', (db) => void (db.device.network_connection_status = 'no_service')],
      ['mobile data off', (db) => void (db.device.data_enabled = false)],
      ['data usage exceeded', (db) => void (db.surroundings.mobile_data_usage_exceeded = true)],
      ['2G', (db) => void (db.device.network_technology_connected = '2G')],
      ['Wi-Fi calling with MMS over Wi-Fi', (db) => Object.assign(db.device, { wifi_calling_enabled: true, wifi_calling_mms_over_wifi: true })],
      ['no MMSC URL', (db) => void (db.device.active_apn_settings.mmsc_url = null)],
      ['no SMS permission', (db) => void (db.device.app_statuses.messaging!.permissions.sms = false)],
    ])('fails with %s', async (_, edit) => {
      expect(say(editUserDb(await good(), edit), 'can_send_mms')).toBe(CANNOT);
    });
  });

  describe('run_speed_test', () => {
    const fourGood = async () =>
      editUserDb(await fixture(), (db) => {
        Object.assign(db.device, { network_signal_strength: 'good', network_technology_connected: '4G', data_saver_mode: false, vpn_connected: false });
      });

    it('4G with good signal: 44.00 Mbps (Good)', async () => {
      expect(say(await fourGood(), 'run_speed_test')).toBe(
        'Speed Test Result: 44.00 Mbps (Good). Connection is good for most activities, including HD streaming.',
      );
    });

    it('no signal: no connection', async () => {
      const env = editUserDb(await fourGood(), (db) => void (db.device.network_signal_strength = 'none'));
      expect(say(env, 'run_speed_test')).toBe('Speed test failed: No Connection.');
    });

    it('data saver: 8.80 Mbps (Fair); with a poor VPN as well: 4.40 Mbps... and the VPN alone slows to 4.40 (Poor)', async () => {
      const saver = editUserDb(await fourGood(), (db) => void (db.device.data_saver_mode = true));
      expect(say(saver, 'run_speed_test')).toBe(
        'Speed Test Result: 8.80 Mbps (Fair). Connection is okay for web browsing and some standard definition streaming.',
      );
      const vpn = editUserDb(await fourGood(), (db) => {
        db.device.vpn_connected = true;
        db.device.vpn_details = { server_address: null, protocol: null, server_performance: 'poor' };
      });
      expect(say(vpn, 'run_speed_test')).toBe(
        'Speed Test Result: 4.40 Mbps (Poor). Connection is slow. Web browsing may be sluggish, streaming difficult.',
      );
      const both = editUserDb(vpn, (db) => void (db.device.data_saver_mode = true));
      expect(say(both, 'run_speed_test')).toBe(
        'Speed Test Result: 0.88 Mbps (Very Poor). Connection is very slow. Basic web browsing might be difficult.',
      );
    });

    it('5G with excellent signal: Excellent', async () => {
      const env = editUserDb(await fourGood(), (db) => {
        Object.assign(db.device, { network_technology_connected: '5G', network_signal_strength: 'excellent' });
      });
      expect(say(env, 'run_speed_test')).toBe('Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast.');
    });
  });
});

describe('verified outputs F45–F70 (one environment, in order)', () => {
  it('every user tool reply matches the reference byte for byte', async () => {
    const env = await telecomEnv();
    const bar = (...parts: string[]) => `Status Bar: ${parts.join(' | ')}`;
    const steps: [string, Record<string, PyValue>, string][] = [
      ['check_status_bar', {}, bar('📶³ Good', '5G', '📱 Data Enabled', '🔋 80%')],
      ['check_network_status', {}, 'Airplane Mode: OFF\nSIM Card Status: active\nCellular Connection: connected\nCellular Signal: good\nCellular Network Type: 5G\nMobile Data Enabled: Yes\nData Roaming Enabled: No\nWi-Fi Radio: OFF\nWi-Fi Connected: No'],
      ['run_speed_test', {}, 'Speed Test Result: 220.00 Mbps (Excellent). Connection is very fast.'],
      ['toggle_airplane_mode', {}, `Airplane Mode is now ON.\n${bar('✈️ Airplane Mode', '🔋 80%')}`],
      ['toggle_airplane_mode', {}, `Airplane Mode is now OFF.\n${bar('📶⁴ Excellent', '5G', '📱 Data Enabled', '🔋 80%')}`],
      ['check_sim_status', {}, 'Your SIM card is active and working.'],
      ['check_apn_settings', {}, 'Current APN Name: internet\nMMSC URL (for picture messages): http://mms.carrier.com/mms/wapenc\n(These are technical settings, usually best left unchanged.)'],
      ['check_wifi_status', {}, 'Wi-Fi is turned OFF.'],
      ['toggle_wifi', {}, `Wi-Fi is now ON.\n${bar('📶⁴ Excellent', '5G', '📱 Data Enabled', '🔋 80%')}`],
      ['check_vpn_status', {}, 'VPN is turned OFF.'],
      ['connect_vpn', {}, `VPN connected successfully.\n${bar('📶⁴ Excellent', '5G', '📱 Data Enabled', '🔒 VPN Connected', '🔋 80%')}`],
      ['check_vpn_status', {}, "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}"],
      ['check_installed_apps', {}, 'The following apps are installed on the phone: messaging, browser'],
      ['check_app_status', { app_name: 'messaging' }, 'Status for App: messaging\n - Permissions Granted:\n   - sms\n   - storage\n   - phone'],
      ['check_app_permissions', { app_name: 'browser' }, "App 'browser' has permission for: storage, network."],
      ['grant_app_permission', { app_name: 'messaging', permission: 'camera' }, `Error. Permission 'camera' not tracked for app 'messaging', available permissions: ['sms', 'storage', 'phone', 'network']\n${bar('📶⁴ Excellent', '5G', '📱 Data Enabled', '🔒 VPN Connected', '🔋 80%')}`],
      ['can_send_mms', {}, 'Your messaging app can send MMS messages.'],
      ['reboot_device', {}, `Restarting network services...\n${bar('📶⁴ Excellent', '5G', '📱 Data Enabled', '🔒 VPN Connected', '🔋 80%')}`],
      ['check_payment_request', {}, 'No payment request has been made.'],
      ['make_payment', {}, 'You do not have a payment request.'],
      ['set_network_mode_preference', { mode: '5g' }, `Failed to set network mode: '5g' is not a valid option. Please use one of: 4g_5g_preferred, 4g_only, 3g_only, 2g_only\n${bar('📶⁴ Excellent', '5G', '📱 Data Enabled', '🔒 VPN Connected', '🔋 80%')}`],
      ['set_network_mode_preference', { mode: '4g_only' }, `Preferred Network Mode set to: 4g_only\n${bar('📶³ Good', '4G', '📱 Data Enabled', '🔒 VPN Connected', '🔋 80%')}`],
      ['check_network_mode_preference', {}, 'Network Mode Preference: 4g_only'],
      ['check_data_restriction_status', {}, 'Data Saver mode is OFF.'],
      ['check_wifi_calling_status', {}, 'Wi-Fi Calling is currently turned OFF.'],
      ['toggle_data', {}, `Mobile Data is now OFF.\n${bar('📶³ Good', '4G', '📵 Data Disabled', '🔒 VPN Connected', '🔋 80%')}`],
    ];
    for (const [name, args, expected] of steps) {
      expect(user(env, name, args), name).toMatchObject({ error: false, content: expected, requestor: 'user' });
    }
  });
});

describe('user tool details', () => {
  it('registers the 30 user tools of Appendix A.3 in order, with the reference write set', async () => {
    const env = await telecomEnv();
    const names = env.userToolSchemas().map((t) => t.function.name);
    expect(names).toEqual([
      'check_status_bar', 'check_network_status', 'check_network_mode_preference', 'set_network_mode_preference',
      'run_speed_test', 'toggle_airplane_mode', 'check_sim_status', 'reseat_sim_card', 'toggle_data', 'toggle_roaming',
      'check_data_restriction_status', 'toggle_data_saver_mode', 'check_apn_settings', 'set_apn_settings',
      'reset_apn_settings', 'check_wifi_status', 'toggle_wifi', 'check_wifi_calling_status', 'toggle_wifi_calling',
      'check_vpn_status', 'connect_vpn', 'disconnect_vpn', 'check_installed_apps', 'check_app_status',
      'check_app_permissions', 'grant_app_permission', 'can_send_mms', 'reboot_device', 'check_payment_request',
      'make_payment',
    ]);
    expect(names.filter((n) => env.isMutatingTool(n))).toEqual([
      'set_network_mode_preference', 'toggle_airplane_mode', 'reseat_sim_card', 'toggle_data', 'toggle_roaming',
      'toggle_data_saver_mode', 'set_apn_settings', 'reset_apn_settings', 'toggle_wifi', 'toggle_wifi_calling',
      'connect_vpn', 'disconnect_vpn', 'grant_app_permission', 'reboot_device', 'make_payment',
    ]);
  });

  it('schemas with $defs are the reference ones (set_network_mode_preference, set_apn_settings)', async () => {
    const env = await telecomEnv();
    const byName = Object.fromEntries(env.userToolSchemas().map((t) => [t.function.name, t]));
    expect(dumpsPy(byName.set_network_mode_preference as never)).toBe(
      '{"type": "function", "function": {"name": "set_network_mode_preference", "description": "Changes the type of cellular network your phone prefers to connect to (e.g., 5G, LTE/4G, 3G). Higher-speed networks (LTE/5G) provide faster data but may use more battery.", "parameters": {"$defs": {"NetworkModePreference": {"enum": ["4g_5g_preferred", "4g_only", "3g_only", "2g_only"], "title": "NetworkModePreference", "type": "string"}}, "properties": {"mode": {"anyOf": [{"$ref": "#/$defs/NetworkModePreference"}, {"type": "string"}], "title": "Mode"}}, "required": ["mode"], "title": "parameters", "type": "object"}}}',
    );
    expect(dumpsPy(byName.set_apn_settings as never)).toBe(
      '{"type": "function", "function": {"name": "set_apn_settings", "description": "Sets the APN settings for the phone.", "parameters": {"$defs": {"APNNames": {"enum": ["internet", "broken"], "title": "APNNames", "type": "string"}, "APNSettings": {"additionalProperties": false, "description": "Represents the configuration for a single Access Point Name (APN).", "properties": {"apn_name": {"$ref": "#/$defs/APNNames", "default": "internet", "description": "The name identifier for the APN connection."}, "reset_at_reboot": {"default": false, "description": "Whether the APN settings will be reset at the next reboot.", "title": "Reset At Reboot", "type": "boolean"}, "mms_apn": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "mms", "description": "Specific APN name used for MMS traffic, if different from general data.", "title": "Mms Apn"}, "mmsc_url": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "http://mms.carrier.com/mms/wapenc", "description": "The URL of the Multimedia Messaging Service Center (MMSC). Crucial for MMS.", "title": "Mmsc Url"}, "mms_proxy": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "The proxy server address required for MMS traffic on some networks.", "title": "Mms Proxy"}, "mms_port": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "description": "The proxy server port required for MMS traffic on some networks.", "title": "Mms Port"}}, "title": "APNSettings", "type": "object"}}, "properties": {"apn_settings": {"anyOf": [{"$ref": "#/$defs/APNSettings"}, {"additionalProperties": true, "type": "object"}], "title": "Apn Settings"}}, "required": ["apn_settings"], "title": "parameters", "type": "object"}}}',
    );
  });

  it('the remaining toggles: data saver (no search), Wi-Fi calling, and turning Wi-Fi off drops the connection', async () => {
    const env = await telecomEnv();
    expect(say(env, 'toggle_data_saver_mode')).toBe('Data Saver Mode is now ON.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%');
    expect(say(env, 'check_data_restriction_status')).toBe('Data Saver mode is ON (limits data usage).');
    expect(say(env, 'toggle_wifi_calling')).toBe('Wi-Fi Calling is now ON.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%');
    expect(say(env, 'check_wifi_calling_status')).toBe('Wi-Fi Calling is currently turned ON.');
    const connected = editUserDb(env, (db) => Object.assign(db.device, { wifi_enabled: true, wifi_connected: true, wifi_ssid: 'Home', wifi_signal_strength: 'good' }));
    expect(say(connected, 'toggle_wifi')).toBe('Wi-Fi is now OFF.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%');
    expect(userDb(connected).device).toMatchObject({ wifi_connected: false, wifi_ssid: null, wifi_signal_strength: 'none' });
  });

  it('airplane mode on drops Wi-Fi and the VPN; off starts a search and drops Wi-Fi', async () => {
    const env = editUserDb(await telecomEnv(), (db) => {
      Object.assign(db.device, { wifi_enabled: true, wifi_connected: true, wifi_ssid: 'Home', wifi_signal_strength: 'good' });
      db.device.vpn_connected = true;
      db.device.vpn_details = { server_address: 'x', protocol: 'y', server_performance: 'good' };
    });
    say(env, 'toggle_airplane_mode');
    expect(userDb(env).device).toMatchObject({
      airplane_mode: true, wifi_connected: false, wifi_ssid: null, vpn_connected: false, vpn_details: null,
      network_connection_status: 'no_service', network_technology_connected: 'none', network_signal_strength: 'none',
    });
    say(env, 'toggle_airplane_mode');
    expect(userDb(env).device).toMatchObject({ airplane_mode: false, network_connection_status: 'connected', network_technology_connected: '5G' });
  });

  it('network modes: 3G and 2G pick their technology and signal; 4G/5G preferred falls back to 4G without 5G', async () => {
    const env = await telecomEnv();
    expect(say(env, 'set_network_mode_preference', { mode: '3g_only' })).toContain('📶² Fair | 3G');
    expect(say(env, 'set_network_mode_preference', { mode: '2g_only' })).toContain('📶¹ Poor | 2G');
    const no5g = editUserDb(env, (db) => void (db.surroundings.signal_strength['5G'] = 'none'));
    expect(say(no5g, 'set_network_mode_preference', { mode: '4g_5g_preferred' })).toContain('📶³ Good | 4G');
  });

  it('a non-str network mode is stored and searched with (4G fallback); then reading its value fails (None: refused)', async () => {
    const env = await telecomEnv();
    expect(user(env, 'set_network_mode_preference', { mode: 5 })).toMatchObject({
      error: true,
      content: "Error: 'int' object has no attribute 'value'",
    });
    expect(userDb(env).device).toMatchObject({ network_mode_preference: 5, network_technology_connected: '4G' });
    expect(user(env, 'check_network_mode_preference')).toMatchObject({ error: true, content: "Error: 'int' object has no attribute 'value'" });
    expect(say(env, 'set_network_mode_preference', { mode: null })).toBe(
      "Failed to set network mode: 'None' is not a valid option. Please use one of: 4g_5g_preferred, 4g_only, 3g_only, 2g_only\nStatus Bar: 📶³ Good | 4G | 📱 Data Enabled | 🔋 80%",
    );
    expect(userDb(env).device.network_mode_preference).toBeNull();
  });

  it('set_apn_settings validates the dict as the APNSettings model; a broken APN means no service', async () => {
    const env = await telecomEnv();
    expect(user(env, 'set_apn_settings', { apn_settings: { apn_name: 'internet', colour: 'red' } })).toMatchObject({
      error: true,
      content: expect.stringContaining('1 validation error for APNSettings\ncolour'),
    });
    expect(user(env, 'set_apn_settings', { apn_settings: { apn_name: 'x' } })).toMatchObject({
      error: true,
      content:
        "Error: 1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken' [type=enum, input_value='x', input_type=str]\n" +
        '    For further information visit https://errors.pydantic.dev/2.12/v/enum',
    });
    // pydantic's lax mode: "8080" is an int, "false" a bool
    expect(say(env, 'set_apn_settings', { apn_settings: { apn_name: 'internet', mms_port: '8080', reset_at_reboot: 'false' } })).toContain(
      'APN settings set to: internet',
    );
    expect(userDb(env).device.active_apn_settings).toMatchObject({ mms_port: 8080, reset_at_reboot: false });
    expect(user(env, 'set_apn_settings', { apn_settings: 'internet' })).toMatchObject({
      error: true,
      content: "Error: 'str' object has no attribute 'apn_name'",
    });
    expect(say(env, 'set_apn_settings', { apn_settings: { apn_name: 'broken' } })).toBe(
      'APN settings set to: broken\nStatus Bar: 📵 No Signal | 📵 Data Disabled | 🔋 80%',
    );
    expect(say(env, 'check_network_status')).toContain('Cellular Connection: no_service');
  });

  it('a non-dict APN setting is stored as given and breaks every later use of the APN until a dict replaces it', async () => {
    // Replies verified against the reference's toolkits, step by step.
    const env = await telecomEnv();
    userFunction(env, 'set_user_info', { name: 'John Smith', phone_number: '555-123-2002' });
    const steps: [string, Record<string, PyValue>, boolean, string][] = [
      ['set_apn_settings', { apn_settings: 'internet' }, true, "Error: 'str' object has no attribute 'apn_name'"],
      ['check_status_bar', {}, false, 'Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔋 80%'],
      ['toggle_data', {}, true, "Error: 'str' object has no attribute 'apn_name'"],
      ['check_apn_settings', {}, true, "Error: 'str' object has no attribute 'model_copy'"],
      ['reset_apn_settings', {}, true, "Error: 'str' object has no attribute 'reset_at_reboot'"],
      ['reboot_device', {}, true, "Error: 'str' object has no attribute 'reset_at_reboot'"],
      ['can_send_mms', {}, false, 'Your messaging app cannot send MMS messages.'],
      ['toggle_airplane_mode', {}, true, "Error: 'str' object has no attribute 'apn_name'"],
      ['check_network_status', {}, false, 'Airplane Mode: ON\nSIM Card Status: active\nCellular Connection: no_service\nCellular Signal: none\nCellular Network Type: none\nMobile Data Enabled: No\nData Roaming Enabled: No\nWi-Fi Radio: OFF\nWi-Fi Connected: No'],
      ['set_apn_settings', { apn_settings: { apn_name: 'internet' } }, false, 'APN settings set to: internet\nStatus Bar: ✈️ Airplane Mode | 🔋 80%'],
      ['toggle_data', {}, false, 'Mobile Data is now ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 80%'],
      ['set_apn_settings', { apn_settings: null }, true, "Error: 'NoneType' object has no attribute 'apn_name'"],
      ['toggle_wifi', {}, false, 'Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 80%'],
      ['set_apn_settings', { apn_settings: [1] }, true, "Error: 'list' object has no attribute 'apn_name'"],
    ];
    for (const [name, args, error, content] of steps) expect(user(env, name, args), name).toMatchObject({ error, content });
    expect(pyDictHash(userDb(env) as never)).toBe('0dc8bce5fd85d637b17e77216259ec6bc5a4ad8e6f5f6e41567c74b4a741aad1');
  });

  it('grant_app_permission: a non-str permission fails before the app lookup result is used', async () => {
    const env = await telecomEnv();
    expect(user(env, 'grant_app_permission', { app_name: 'nope', permission: 3 })).toMatchObject({
      error: true,
      content: "Error: 'int' object has no attribute 'lower'",
    });
    expect(user(env, 'check_app_status', { app_name: ['x'] })).toMatchObject({ error: true, content: "Error: unhashable type: 'list'" });
  });
});

describe('phone set-up and assertion functions', () => {
  it('lock_sim_card, break_apn_settings: no service until fixed (the APN by reset + reboot)', async () => {
    const env = await telecomEnv();
    expect(userFunction(env, 'lock_sim_card', { mode: 'pin' })).toBe('SIM card locked successfully in pin mode.');
    expect(userFunction(env, 'assert_service_status', { expected_status: 'no_service' })).toBe(true);
    const apn = await telecomEnv();
    expect(userFunction(apn, 'break_apn_settings')).toBe('APN settings broken. Please call reset_apn_settings() to fix.');
    say(apn, 'reset_apn_settings');
    expect(userFunction(apn, 'assert_service_status', { expected_status: 'connected' })).toBe(false);
    say(apn, 'reboot_device');
    expect(userFunction(apn, 'assert_service_status', { expected_status: 'connected' })).toBe(true);
    expect(() => userFunction(apn, 'assert_service_status', { expected_status: 'online' })).toThrow("'online' is not a valid NetworkStatus");
  });

  it('turn_data_on does not search; turn_data_off does; data saver and roaming turn_* are idempotent', async () => {
    const env = await telecomEnv();
    expect(userFunction(env, 'turn_data_off')).toBe('Data connection broken.');
    expect(userFunction(env, 'assert_mobile_data_status', { expected_status: false })).toBe(true);
    expect(userDb(env).device.network_signal_strength).toBe('excellent');
    expect(userFunction(env, 'turn_data_on')).toBe('Data connection restored.');
    expect(userFunction(env, 'turn_data_saver_mode_on')).toBe('Data Saver Mode is now ON.');
    expect(userFunction(env, 'turn_data_saver_mode_on')).toBe('Data Saver Mode is now ON.');
    expect(userFunction(env, 'assert_mobile_data_saver_mode_status', { expected_status: true })).toBe(true);
    expect(userFunction(env, 'turn_data_saver_mode_off')).toBe('Data Saver Mode is now OFF.');
    expect(userFunction(env, 'turn_roaming_on')).toBe('Data Roaming is now ON.');
    expect(userFunction(env, 'turn_roaming_on')).toBe('Data Roaming is now ON.');
    expect(userFunction(env, 'assert_mobile_roaming_status', { expected_status: true })).toBe(true);
    expect(userFunction(env, 'turn_roaming_off')).toBe('Data Roaming is now OFF.');
    expect(userFunction(env, 'assert_mobile_roaming_status', { expected_status: false })).toBe(true);
  });

  it('break_vpn connects a poor VPN: the speed drops until it is disconnected', async () => {
    const env = await telecomEnv();
    expect(userFunction(env, 'break_vpn')).toBe('VPN connection broken.');
    expect(userFunction(env, 'assert_internet_not_excellent')).toBe(true);
    expect(say(env, 'run_speed_test')).toBe('Speed Test Result: 22.00 Mbps (Fair). Connection is okay for web browsing and some standard definition streaming.');
    say(env, 'disconnect_vpn');
    expect(userFunction(env, 'assert_internet_speed', { expected_speed: 200, expected_desc: 'excellent' })).toBe(true);
    expect(userFunction(env, 'assert_internet_speed', { expected_speed: 300 })).toBe(false);
  });

  it('break_apn_mms_setting and set_wifi_calling(mms_over_wifi) break MMS; abroad without roaming breaks data', async () => {
    const env = await telecomEnv();
    expect(userFunction(env, 'assert_can_send_mms', { expected_status: true })).toBe(true);
    expect(userFunction(env, 'set_wifi_calling', { enabled: true, mms_over_wifi: true })).toBe('Wi-Fi Calling is now ON.\nMMS over Wi-Fi is now ON.');
    expect(userFunction(env, 'assert_can_send_mms', { expected_status: false })).toBe(true);
    expect(userFunction(env, 'set_wifi_calling', { enabled: false })).toBe('Wi-Fi Calling is now OFF.');
    expect(userFunction(env, 'break_apn_mms_setting')).toBe('APN MMS setting broken. Please call reset_apn_settings() to fix.');
    expect(say(env, 'check_apn_settings')).toContain('MMSC URL (for picture messages): Not Set');
    userFunction(env, 'set_user_location', { abroad: true });
    expect(userFunction(env, 'assert_mobile_data_status', { expected_status: false })).toBe(true);
    expect(userFunction(env, 'assert_airplane_mode_status', { expected_status: false })).toBe(true);
  });

  it('an unknown function name fails like getattr', async () => {
    const env = await telecomEnv();
    expect(() => userFunction(env, 'fly_away')).toThrow("'TelecomUserTools' object has no attribute 'fly_away'");
  });
});
