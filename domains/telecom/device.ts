// The simulated phone: network search, mobile data, speed test, MMS capability, status bar and the settings
// toggles the user tools and the task set-up functions share (reference: TelecomUserTools in
// src/tau2/domains/telecom/user_tools.py).
import { isPlainDict, pyRound, pyTypeName } from '../../src/core/py/index.ts';
import type { PyFloat } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { APNSettingsSchema } from './user_data_model.ts';
import type { APNSettings, Device, NetworkTechnology, SignalStrength, SimStatus, TelecomUserDB, VpnDetails } from './user_data_model.ts';

/**
 * The phone's APN settings, read for `attribute`. `set_apn_settings` stores a non-dict argument as given (the
 * reference converts only dicts), and from then on every use of the settings fails as Python's attribute
 * access would, until a dict replaces them.
 */
export const apnSettings = (device: Device, attribute: string): APNSettings => {
  const settings: unknown = device.active_apn_settings;
  if (!isPlainDict(settings)) throw new ToolError(`'${pyTypeName(settings)}' object has no attribute '${attribute}'`);
  return settings as APNSettings;
};

export const simStatus = (device: Device): SimStatus => (device.sim_card_missing ? 'missing' : device.sim_card_status);

const noService = (device: Device): void => {
  device.network_connection_status = 'no_service';
  device.network_technology_connected = 'none';
  device.network_signal_strength = 'none';
};

/** Only technologies a network mode can select; any other stored preference falls back to 4G. */
const MODE_TECHNOLOGY: Readonly<Record<string, NetworkTechnology>> = { '4g_only': '4G', '3g_only': '3G', '2g_only': '2G' };

/** The outcome of a cellular network search: the only place signal and technology are recomputed. */
export const simulateNetworkSearch = ({ device, surroundings }: TelecomUserDB): void => {
  const signalOf = (tech: NetworkTechnology): SignalStrength => surroundings.signal_strength[tech] ?? 'none';
  if (simStatus(device) === 'active') {
    device.network_connection_status = 'connected';
    let tech: NetworkTechnology;
    if (device.network_mode_preference === '4g_5g_preferred') tech = signalOf('5G') === 'none' ? '4G' : '5G';
    else tech = MODE_TECHNOLOGY[device.network_mode_preference] ?? '4G';
    device.network_technology_connected = tech;
    device.network_signal_strength = signalOf(tech);
  } else {
    noService(device);
  }
  if (device.airplane_mode) noService(device);
  if (apnSettings(device, 'apn_name').apn_name === 'broken') noService(device);
  if (!surroundings.line_active) noService(device);
};

export const mobileDataWorking = ({ device, surroundings }: TelecomUserDB): boolean => {
  if (device.airplane_mode || device.network_signal_strength === 'none') return false;
  if (device.network_connection_status === 'no_service') return false;
  if (surroundings.is_abroad && (!device.roaming_enabled || !surroundings.roaming_allowed)) return false;
  if (!device.data_enabled) return false;
  return !surroundings.mobile_data_usage_exceeded;
};

const SPEED_RANGES: Readonly<Record<NetworkTechnology, readonly [number, number]>> = {
  '2G': [0.1, 0.4],
  '3G': [1.0, 5.0],
  '4G': [10.0, 100.0],
  '5G': [50.0, 500.0],
  none: [0.0, 0.0],
};
const SIGNAL_FACTORS: Readonly<Record<SignalStrength, number>> = { poor: 0.2, fair: 0.5, good: 0.8, excellent: 1.0, none: 0.0 };

export type SpeedDescription = 'Very Poor' | 'Poor' | 'Fair' | 'Good' | 'Excellent';

/** The simulated download speed (Mbps, rounded to 2 places) and its description, or no connection. */
export const speedTest = (db: TelecomUserDB): { speed: PyFloat; description: SpeedDescription } | null => {
  if (!mobileDataWorking(db)) return null;
  const { device } = db;
  let factor = device.vpn_connected && device.vpn_details?.server_performance === 'poor' ? 0.1 : 1.0;
  if (device.data_saver_mode) factor *= 0.2;
  const [min, max] = SPEED_RANGES[device.network_technology_connected];
  const speed = pyRound(((min + max) / 2.0) * SIGNAL_FACTORS[device.network_signal_strength] * factor, 2);
  const v = speed.value;
  const description: SpeedDescription = v < 1 ? 'Very Poor' : v < 5 ? 'Poor' : v < 25 ? 'Fair' : v < 100 ? 'Good' : 'Excellent';
  return { speed, description };
};

export const canSendMms = (db: TelecomUserDB): boolean => {
  const { device } = db;
  if (!mobileDataWorking(db)) return false;
  if (device.network_technology_connected === '2G') return false;
  // Wi-Fi calling with MMS over Wi-Fi is a device option the carrier does not support.
  if (device.wifi_calling_enabled && device.wifi_calling_mms_over_wifi) return false;
  if (apnSettings(device, 'mmsc_url').mmsc_url === null) return false;
  const messaging = device.app_statuses.messaging;
  return messaging !== undefined && messaging.permissions.storage && messaging.permissions.sms;
};

const SIGNAL_ICONS: Readonly<Record<SignalStrength, string>> = {
  none: '📵 No Signal',
  poor: '📶¹ Poor',
  fair: '📶² Fair',
  good: '📶³ Good',
  excellent: '📶⁴ Excellent',
};

export const statusBar = (device: Device): string => {
  const indicators: string[] = [];
  if (device.airplane_mode) {
    indicators.push('✈️ Airplane Mode');
  } else {
    indicators.push(SIGNAL_ICONS[device.network_signal_strength]);
    const tech = device.network_technology_connected;
    if (tech !== 'none') indicators.push(tech);
    if (device.data_enabled && tech !== 'none') {
      indicators.push('📱 Data Enabled');
      if (device.data_saver_mode) indicators.push('🔽 Data Saver');
    } else {
      indicators.push('📵 Data Disabled');
    }
  }
  if (device.wifi_enabled && device.wifi_connected) {
    indicators.push(device.wifi_ssid ? `📡 Connected to ${device.wifi_ssid}` : '📡 Enabled');
  }
  if (device.vpn_connected) indicators.push('🔒 VPN Connected');
  indicators.push(`🔋 ${device.battery_level}%`);
  return indicators.join(' | ');
};

const disconnectWifi = (device: Device): void => {
  device.wifi_connected = false;
  device.wifi_ssid = null;
  device.wifi_signal_strength = 'none';
};

/** Turning it off starts a search (and drops Wi-Fi); turning it on drops Wi-Fi and the VPN. */
export const toggleAirplaneMode = (db: TelecomUserDB): boolean => {
  const { device } = db;
  const wasOn = device.airplane_mode;
  device.airplane_mode = !wasOn;
  if (wasOn) {
    device.network_connection_status = 'searching';
    if (device.wifi_enabled) disconnectWifi(device);
  } else {
    disconnectWifi(device);
    if (device.vpn_connected) disconnectVpn(device);
  }
  simulateNetworkSearch(db);
  return device.airplane_mode;
};

export const toggleData = (db: TelecomUserDB): boolean => {
  db.device.data_enabled = !db.device.data_enabled;
  simulateNetworkSearch(db);
  return db.device.data_enabled;
};

export const toggleRoaming = (db: TelecomUserDB): boolean => {
  db.device.roaming_enabled = !db.device.roaming_enabled;
  simulateNetworkSearch(db);
  return db.device.roaming_enabled;
};

/** No network search: data saver only slows data down. */
export const toggleDataSaver = (device: Device): boolean => {
  device.data_saver_mode = !device.data_saver_mode;
  return device.data_saver_mode;
};

export const toggleWifiCalling = (device: Device): boolean => {
  device.wifi_calling_enabled = !device.wifi_calling_enabled;
  return device.wifi_calling_enabled;
};

/** `null` while airplane mode is on; turning Wi-Fi on never joins a network. */
export const toggleWifi = (device: Device): boolean | null => {
  if (device.airplane_mode) return null;
  device.wifi_enabled = !device.wifi_enabled;
  if (!device.wifi_enabled) disconnectWifi(device);
  return device.wifi_enabled;
};

/**
 * The VPN profile a connection uses: always the unbroken default here. The reference assigns one shared
 * class-level object that `break_vpn` degrades in place, so there a reconnect after any `break_vpn` in the
 * same Python process (the same episode, or an earlier one) gets the "poor" profile. Keeping that would need
 * state outside both DBs; no gold action reconnects, so the oracle and DB hashes are unaffected.
 */
const defaultVpnDetails = (): VpnDetails => ({ server_address: '192.168.1.1', protocol: 'OpenVPN', server_performance: 'excellent' });

/** `null` when already connected. */
export const connectVpn = (device: Device): boolean | null => {
  if (device.vpn_connected) return null;
  device.vpn_connected = true;
  device.vpn_details = defaultVpnDetails();
  return true;
};

export const disconnectVpn = (device: Device): boolean => {
  if (!device.vpn_connected) return false;
  device.vpn_connected = false;
  device.vpn_details = null;
  return true;
};

/** Resets the APN first if a reset was scheduled, then restarts network services (a fresh search). */
export const rebootDevice = (db: TelecomUserDB): string => {
  const lines: string[] = [];
  if (apnSettings(db.device, 'reset_at_reboot').reset_at_reboot) {
    lines.push('Resetting APN settings...');
    db.device.active_apn_settings = APNSettingsSchema.parse({});
  }
  lines.push('Restarting network services...');
  db.device.network_connection_status = 'searching';
  simulateNetworkSearch(db);
  return lines.join('\n');
};
