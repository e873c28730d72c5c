// Tenants: every resource belongs to one. The operator's own tenant holds what the operator key (API_KEY) creates,
// and what every caller creates when no API_KEY is configured (local development).
export const OPERATOR_TENANT = 'operator';
