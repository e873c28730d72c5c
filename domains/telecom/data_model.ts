// Telecom agent-side DB model: plans, customers, lines, bills, devices (reference:
// src/tau2/domains/telecom/data_model.py). Every model forbids extra keys; field order is the reference's.
import { z } from 'zod';
import { PyBoolSchema, PyFloatSchema, nullable } from '../../src/core/schemas/py-types.ts';
import { DateSchema, DateTimeSchema } from './dates.ts';

export const AddressSchema = z.strictObject({
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
});

export const PlanSchema = z.strictObject({
  plan_id: z.string(),
  name: z.string(),
  data_limit_gb: PyFloatSchema,
  price_per_month: PyFloatSchema,
  data_refueling_price_per_gb: PyFloatSchema,
});
export type Plan = z.infer<typeof PlanSchema>;

export const DeviceSchema = z.strictObject({
  device_id: z.string(),
  device_type: z.enum(['phone', 'router', 'tablet', 'watch', 'other']),
  model: z.string(),
  imei: nullable(z.string()),
  is_esim_capable: PyBoolSchema,
  activated: PyBoolSchema.default(false),
  activation_date: nullable(DateTimeSchema),
  last_esim_transfer_date: nullable(DateTimeSchema),
});

export const LineStatusSchema = z.enum(['Active', 'Suspended', 'Pending Activation', 'Closed']);
export type LineStatus = z.infer<typeof LineStatusSchema>;

export const LineSchema = z.strictObject({
  line_id: z.string(),
  phone_number: z.string(),
  status: LineStatusSchema.default('Pending Activation'),
  plan_id: z.string(),
  device_id: nullable(z.string()),
  data_used_gb: PyFloatSchema.prefault(0),
  data_refueling_gb: PyFloatSchema.prefault(0),
  roaming_enabled: PyBoolSchema.default(false),
  contract_end_date: nullable(DateSchema),
  last_plan_change_date: nullable(DateSchema),
  last_sim_replacement_date: nullable(DateSchema),
  suspension_start_date: nullable(DateSchema),
});
export type Line = z.infer<typeof LineSchema>;

export const LineItemSchema = z.strictObject({
  description: z.string(),
  amount: PyFloatSchema,
  date: DateSchema,
  item_type: z.string(),
});

export const BillStatusSchema = z.enum(['Draft', 'Issued', 'Awaiting Payment', 'Paid', 'Overdue', 'Disputed']);

export const BillSchema = z.strictObject({
  bill_id: z.string(),
  customer_id: z.string(),
  period_start: DateSchema,
  period_end: DateSchema,
  issue_date: DateSchema,
  total_due: PyFloatSchema,
  due_date: DateSchema,
  line_items: z.array(LineItemSchema).default([]),
  status: BillStatusSchema.default('Draft'),
});
export type Bill = z.infer<typeof BillSchema>;

export const PaymentMethodSchema = z.strictObject({
  method_type: z.enum(['Credit Card', 'Debit Card', 'PayPal']),
  account_number_last_4: z.string(),
  expiration_date: z.string(),
});

export const CustomerSchema = z.strictObject({
  customer_id: z.string(),
  full_name: z.string(),
  date_of_birth: z.string(),
  email: z.string(),
  phone_number: z.string(),
  address: AddressSchema,
  account_status: z.enum(['Active', 'Suspended', 'Pending Verification', 'Closed']).default('Pending Verification'),
  payment_methods: z.array(PaymentMethodSchema).default([]),
  line_ids: z.array(z.string()).default([]),
  bill_ids: z.array(z.string()).default([]),
  // The reference's default is a `date` (2025-01-01), which pydantic does not convert to a datetime.
  created_at: DateTimeSchema.default('2025-01-01'),
  last_extension_date: nullable(DateSchema),
  goodwill_credit_used_this_year: PyFloatSchema.prefault(0),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const TelecomDBSchema = z.strictObject({
  plans: z.array(PlanSchema).default([]),
  customers: z.array(CustomerSchema).default([]),
  lines: z.array(LineSchema).default([]),
  bills: z.array(BillSchema).default([]),
  devices: z.array(DeviceSchema).default([]),
});
export type TelecomDB = z.infer<typeof TelecomDBSchema>;
