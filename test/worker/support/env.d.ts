// Bindings only the tests have (set in vitest.config.ts).
declare namespace Cloudflare {
  interface Env {
    TEST_AGENT_ENDPOINT_URL: string;
    TEST_ROLE_PROVIDER_URL: string;
    TEST_RESPONSES_URL: string;
    TEST_REDIRECT_BOUNCER_URL: string;
    TEST_REDIRECT_TRAP_URL: string;
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
