// The operator limits on what one run may ask for (its size, steps, retries, model arguments), as runLimitIssues
// checks them; names only (no Workers types), so the CLI can lift them on the user's own local worker.
export const RUN_SIZE_LIMITS = [
  'LIMIT_MAX_EPISODES_PER_RUN', 'LIMIT_MAX_TRIALS', 'LIMIT_MAX_STEPS', 'LIMIT_MAX_ERRORS', 'LIMIT_MAX_RETRIES', 'LIMIT_MAX_CONCURRENCY',
  'LIMIT_MAX_RETRY_DELAY_SECONDS', 'LIMIT_MAX_TIMEOUT_SECONDS', 'LIMIT_MAX_TOKENS', 'LIMIT_MAX_CHOICES', 'LIMIT_MAX_LLM_RETRIES',
] as const;
