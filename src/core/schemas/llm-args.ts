// A role's llm_args (litellm's completion keyword arguments) as runs, schedules and episodes take them. They
// never carry a credential: the arguments are stored and shown with the run's configuration, and a key given
// there would never be sent either (litellm's api_key and extra_headers stay on the client). Provider keys go
// to /v1/provider-credentials, or to the operator's variables. A key-like name is refused at any depth.
import { z } from 'zod';
import { isPyFloat } from '../py/index.ts';
import { PyDictSchema } from './py-types.ts';

/** Names that are a credential whatever surrounds them (in snake_case, lower case). */
const CREDENTIAL_NAMES = new Set(['apikey', 'api_key', 'token', 'password', 'passwd', 'authorization', 'proxy_authorization', 'cookie']);
/** Name endings of a credential, e.g. `x_api_key`, `access_token`. */
const CREDENTIAL_ENDINGS = ['_key', '_token', '_password'];
/** Arguments that look key-like but are not secrets: OpenAI's prompt-cache routing key. */
const NOT_CREDENTIALS = new Set(['prompt_cache_key']);

/** `apiKey`, `X-Api-Key` and `api_key` alike, as `api_key` / `x_api_key`. */
const snakeName = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();

export const isCredentialName = (name: string): boolean => {
  const snake = snakeName(name);
  if (NOT_CREDENTIALS.has(snake)) return false;
  return CREDENTIAL_NAMES.has(snake) || CREDENTIAL_ENDINGS.some((ending) => snake.endsWith(ending)) || snake.includes('secret');
};

const entriesOf = (value: unknown): [string, unknown][] => {
  if (value instanceof Map) return [...value].map(([k, v]) => [String(k), v]);
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  if (typeof value === 'object' && value !== null && !isPyFloat(value)) return Object.entries(value);
  return [];
};

/** The path of every credential-like name in a value, at any depth (dicts, their Map form, lists). */
export const credentialPaths = (value: unknown, at: readonly (string | number)[] = []): (string | number)[][] =>
  entriesOf(value).flatMap(([key, inner]) => {
    const path = [...at, Array.isArray(value) ? Number(key) : key];
    return isCredentialName(key) && !Array.isArray(value) ? [path] : credentialPaths(inner, path);
  });

/** The value with every credential-like entry left out, at any depth (llm_args stored before they were refused). */
export const withoutCredentials = (value: unknown): unknown => {
  if (value instanceof Map) return new Map([...value].filter(([k]) => !isCredentialName(String(k))).map(([k, v]) => [k, withoutCredentials(v)]));
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (typeof value !== 'object' || value === null || isPyFloat(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !isCredentialName(k)).map(([k, v]) => [k, withoutCredentials(v)]));
};

export const CREDENTIAL_ARG_MESSAGE = 'A credential does not belong in llm args (they are stored and shown with the run): set provider keys with PUT /v1/provider-credentials/{provider}';

/** A role's llm_args: a dict without credential-like names. */
export const LlmArgsSchema = PyDictSchema.superRefine((args, ctx) => {
  for (const path of credentialPaths(args)) ctx.addIssue({ code: 'custom', message: CREDENTIAL_ARG_MESSAGE, path });
});
