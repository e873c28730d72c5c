// Telecom user-side DB: the user's phone and physical surroundings (reference:
// src/tau2/domains/telecom/user_data_model.py). Every model forbids extra keys; field order is the reference's.
import { z } from 'zod';
import { PyBoolSchema, PyFloatSchema, PyIntSchema, nullable } from '../../src/core/schemas/py-types.ts';
import { pyEnum } from '../../src/core/environment/model.ts';

export const SimStatusSchema = z.enum(['active', 'missing', 'locked_pin', 'locked_puk']);
export type SimStatus = z.infer<typeof SimStatusSchema>;
export const NetworkTechnologySchema = z.enum(['none', '2G', '3G', '4G', '5G']);
export type NetworkTechnology = z.infer<typeof NetworkTechnologySchema>;
export const NetworkModePreferenceSchema = z.enum(['4g_5g_preferred', '4g_only', '3g_only', '2g_only']);
export type NetworkModePreference = z.infer<typeof NetworkModePreferenceSchema>;
export const SignalStrengthSchema = z.enum(['none', 'poor', 'fair', 'good', 'excellent']);
export type SignalStrength = z.infer<typeof SignalStrengthSchema>;
export const PerformanceLevelSchema = z.enum(['unknown', 'poor', 'fair', 'good', 'excellent']);
export const NetworkStatusSchema = z.enum(['connected', 'searching', 'no_service', 'emergency_only']);
// A str Enum in the reference: an invalid name is reported as pydantic's `enum` error.
export const APNNamesSchema = pyEnum(['internet', 'broken']);

export const APNSettingsSchema = z.strictObject({
  apn_name: APNNamesSchema.default('internet'),
  reset_at_reboot: PyBoolSchema.default(false),
  mms_apn: z.string().nullable().default('mms'),
  mmsc_url: z.string().nullable().default('http://mms.carrier.com/mms/wapenc'),
  mms_proxy: nullable(z.string()),
  mms_port: nullable(PyIntSchema),
});
export type APNSettings = z.infer<typeof APNSettingsSchema>;

export const VpnDetailsSchema = z.strictObject({
  server_address: nullable(z.string()),
  protocol: nullable(z.string()),
  server_performance: PerformanceLevelSchema.default('unknown'),
});
export type VpnDetails = z.infer<typeof VpnDetailsSchema>;

export const AppPermissionsSchema = z.strictObject({
  sms: PyBoolSchema.default(false),
  storage: PyBoolSchema.default(false),
  phone: PyBoolSchema.default(false),
  network: PyBoolSchema.default(false),
});
export type AppPermissions = z.infer<typeof AppPermissionsSchema>;

export const AppStatusSchema = z.strictObject({
  app_name: z.string(),
  permissions: AppPermissionsSchema.prefault({}),
});

export const MockPhoneAttributesSchema = z.strictObject({
  sim_card_status: SimStatusSchema.default('active'),
  sim_card_missing: PyBoolSchema.default(false),
  airplane_mode: PyBoolSchema.default(false),
  network_signal_strength: SignalStrengthSchema.default('good'),
  network_technology_connected: NetworkTechnologySchema.default('5G'),
  network_connection_status: NetworkStatusSchema.default('connected'),
  battery_level: PyIntSchema.prefault(80),
  data_enabled: PyBoolSchema.default(true),
  roaming_enabled: PyBoolSchema.default(false),
  network_mode_preference: NetworkModePreferenceSchema.default('4g_5g_preferred'),
  active_apn_settings: APNSettingsSchema.prefault({}),
  wifi_enabled: PyBoolSchema.default(false),
  wifi_connected: PyBoolSchema.default(false),
  wifi_ssid: nullable(z.string()),
  wifi_signal_strength: SignalStrengthSchema.default('none'),
  wifi_calling_enabled: PyBoolSchema.default(false),
  wifi_calling_mms_over_wifi: PyBoolSchema.default(false),
  data_saver_mode: PyBoolSchema.default(false),
  vpn_enabled_setting: PyBoolSchema.default(false),
  vpn_connected: PyBoolSchema.default(false),
  vpn_details: nullable(VpnDetailsSchema),
  app_statuses: z.record(z.string(), AppStatusSchema).prefault({
    messaging: { app_name: 'messaging', permissions: { sms: true, storage: true, phone: true } },
    browser: { app_name: 'browser', permissions: { network: true, storage: true } },
  }),
});
export type Device = z.infer<typeof MockPhoneAttributesSchema>;

export const PaymentRequestSchema = z.strictObject({
  bill_id: z.string(),
  amount_due: PyFloatSchema,
  paid: PyBoolSchema.default(false),
});

export const UserSurroundingsSchema = z.strictObject({
  name: nullable(z.string()),
  phone_number: nullable(z.string()),
  is_abroad: PyBoolSchema.default(false),
  roaming_allowed: PyBoolSchema.default(false),
  signal_strength: z
    .partialRecord(NetworkTechnologySchema, SignalStrengthSchema)
    .prefault({ '2G': 'poor', '3G': 'fair', '4G': 'good', '5G': 'excellent' }),
  mobile_data_usage_exceeded: PyBoolSchema.default(false),
  line_active: PyBoolSchema.default(true),
  payment_request: nullable(PaymentRequestSchema),
});
export type Surroundings = z.infer<typeof UserSurroundingsSchema>;

export const TelecomUserDBSchema = z.strictObject({
  device: MockPhoneAttributesSchema.prefault({}),
  surroundings: UserSurroundingsSchema.prefault({}),
});
export type TelecomUserDB = z.infer<typeof TelecomUserDBSchema>;
