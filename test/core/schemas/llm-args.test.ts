// Credential-like names in a role's llm_args are refused at any depth, by name and case-insensitively; the
// arguments runs really take (sampling, reasoning, api_base, extra_body …) pass unchanged.
import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '../../../src/core/schemas/run-config.ts';
import { LlmArgsSchema, credentialPaths, isCredentialName, withoutCredentials } from '../../../src/core/schemas/llm-args.ts';
import { parsePyJson, pyFloat } from '../../../src/core/py/index.ts';

const issuePaths = (value: unknown): string[] => {
  const result = LlmArgsSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
};

describe('credential-like llm args', () => {
  it.each([
    'api_key', 'apiKey', 'API_KEY', 'Api-Key', 'x-api-key', 'X-API-KEY', 'x-goog-api-key', 'anthropic_api_key', 'access_token', 'refreshToken',
    'client_secret', 'SECRET', 'secretKey', 'password', 'Authorization', 'authorization', 'proxy-authorization', 'Proxy-Authorization', 'cookie', 'Cookie',
  ])('%s is a credential', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each(['api_base', 'base_url', 'temperature', 'max_tokens', 'max_completion_tokens', 'top_p', 'seed', 'reasoning_effort', 'thinking', 'budget_tokens', 'prompt_cache', 'prompt_cache_key', 'extra_body', 'num_retries', 'timeout', 'tool_choice', 'type'])(
    '%s is not',
    (name) => {
      expect(isCredentialName(name)).toBe(false);
    },
  );

  it('are refused at any depth, each with its path', () => {
    expect(issuePaths({ api_key: 'sk-1' })).toEqual(['api_key']);
    expect(issuePaths({ extra_headers: { Authorization: 'Bearer sk-1', 'X-Trace': 'ok' } })).toEqual(['extra_headers.Authorization']);
    expect(issuePaths({ default_headers: { 'x-api-key': 'k' }, headers: { Cookie: 'c' } })).toEqual(['default_headers.x-api-key', 'headers.Cookie']);
    expect(issuePaths({ extra_body: { metadata: [{ user: 'u' }, { session_token: 't' }] } })).toEqual(['extra_body.metadata.1.session_token']);
    // The Map form the JSON decoder gives dicts whose keys look like indexes.
    expect(credentialPaths(parsePyJson('{"extra_body": {"0": {"apiKey": "k"}}}'))).toEqual([['extra_body', '0', 'apiKey']]);
  });

  it('legitimate arguments pass unchanged', () => {
    const args = {
      temperature: pyFloat(0),
      max_tokens: 4096,
      reasoning_effort: 'low',
      thinking: { type: 'enabled', budget_tokens: 2048 },
      api_base: 'https://example.test/v1',
      extra_body: { top_k: 5 },
      extra_headers: { 'X-Trace': 'abc' },
    };
    expect(LlmArgsSchema.parse(args)).toEqual(args);
  });

  it('a run configuration names the role and the field', () => {
    const result = RunConfigSchema.safeParse({ domain: 'mock', llm_args_judge: { temperature: 0 }, llm_args_user: { extra_headers: { authorization: 'Bearer x' } } });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['llm_args_user.extra_headers.authorization']);
    expect(result.error!.issues[0]!.message).toMatch(/provider-credentials/);
  });

  it('stored arguments are read without them', () => {
    expect(withoutCredentials({ temperature: 0, api_key: 'sk', extra_headers: { Authorization: 'x', 'X-Trace': 't' } })).toEqual({ temperature: 0, extra_headers: { 'X-Trace': 't' } });
  });
});
