// Tenants: their API keys (operator only), their own provider credentials, their quotas and usage.
import { z } from 'zod';
import { plainText } from '../core/schemas/run-config.ts';
import { pyNumber } from '../core/schemas/py-types.ts';
import { UsdSchema } from '../core/schemas/usage.ts';
import { isPyFloat } from '../core/py/index.ts';
import { CREDENTIAL_PROVIDERS } from '../core/llm/providers.ts';
import { count } from './common.ts';

// Tenants' API keys, administered by the operator (the API_KEY secret).
/** A tenant id: what every run and schedule of the tenant is filed under. */
export const TenantIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'Use 1 to 63 of a-z, 0-9, _ and -, starting with a letter or digit');

export const ApiKeyCreateSchema = z.strictObject({
  tenant: TenantIdSchema.refine((t) => t !== 'operator', 'operator is the operator key\'s own tenant'),
  name: plainText().min(1),
});
export type ApiKeyCreate = z.input<typeof ApiKeyCreateSchema>;

export const ApiKeySchema = z.object({
  id: z.string(),
  tenant: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; the key itself is shown once, at creation. */
  prefix: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyCreatedSchema = ApiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;
export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) });

// Bring-your-own provider: a tenant's own credentials, used by its runs. Keys are write-only.
export const ProviderNameSchema = z.enum(CREDENTIAL_PROVIDERS);
export type ProviderName = z.infer<typeof ProviderNameSchema>;

export const ProviderCredentialPutSchema = z.strictObject({
  /** For `openai`: any OpenAI-compatible endpoint (https, public); absent = api.openai.com. */
  base_url: z.string().max(2048).nullable().default(null),
  api_key: plainText(4096).min(1),
});
export type ProviderCredentialPut = z.input<typeof ProviderCredentialPutSchema>;

export const ProviderCredentialSchema = z.object({
  provider: ProviderNameSchema,
  base_url: z.string().nullable(),
  /** Always true: the key is stored, encrypted, and never returned. */
  key_set: z.literal(true),
  updated_at: z.string(),
});
export type ProviderCredential = z.infer<typeof ProviderCredentialSchema>;
export const ProviderCredentialListSchema = z.object({ credentials: z.array(ProviderCredentialSchema) });

/** A tenant's quotas (operator only); null = unlimited. */
const quota = pyNumber(z.number().int().nonnegative()).nullable();
export const TenantQuotasSchema = z.strictObject({
  /** Episodes pending or running over all the tenant's runs. */
  episodes_in_flight: quota.default(null),
  /** Episodes of runs launched since 00:00 UTC. */
  episodes_per_day: quota.default(null),
  schedules: quota.default(null),
  /** The daily USD budget: every model call of the tenant since 00:00 UTC, reserved before and settled after (tenancy/spend-ledger.ts). */
  usd_per_day: z.preprocess((v) => (isPyFloat(v) ? v.value : v), z.number().nonnegative().nullable()).default(null),
});
export type TenantQuotas = z.infer<typeof TenantQuotasSchema>;

export const TenantUsageSchema = z.object({
  episodes_in_flight: count,
  episodes_today: count,
  schedules: count,
  usd_today: UsdSchema,
});
export type TenantUsage = z.infer<typeof TenantUsageSchema>;
export const TenantQuotasViewSchema = z.object({ tenant: z.string(), quotas: TenantQuotasSchema, usage: TenantUsageSchema });
export type TenantQuotasView = z.infer<typeof TenantQuotasViewSchema>;
