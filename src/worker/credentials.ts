// Bring-your-own provider credentials: keys encrypted at rest with AES-GCM (WebCrypto) under the Worker secret
// CREDENTIALS_KEY (32 random bytes, base64), and the rules an endpoint URL must meet: https, and no loopback,
// private, link-local or otherwise internal address, unless the operator allows local endpoints
// (ALLOW_LOCAL_PROVIDERS=true, for development against a server on this machine).

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-GCM key from the secret; null when the operator has not configured one. */
const credentialsKey = (env: Env): Promise<CryptoKey> | null => {
  const secret = env.CREDENTIALS_KEY;
  if (!secret) return null;
  let key = keys.get(secret);
  if (!key) {
    const raw = fromBase64(secret);
    if (raw.length !== 32) throw new Error('CREDENTIALS_KEY must be 32 bytes, base64-encoded');
    key = crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(secret, key);
  }
  return key;
};

export const credentialsConfigured = (env: Env): boolean => Boolean(env.CREDENTIALS_KEY);

/** base64(IV ‖ ciphertext); the tenant and provider are bound in as additional data, so rows cannot be swapped. */
export const encryptSecret = async (env: Env, plaintext: string, context: string): Promise<string> => {
  const key = credentialsKey(env);
  if (!key) throw new Error('CREDENTIALS_KEY is not configured');
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(context) },
    await key,
    new TextEncoder().encode(plaintext),
  );
  const out = new Uint8Array(iv.length + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.length);
  return toBase64(out);
};

export const decryptSecret = async (env: Env, sealed: string, context: string): Promise<string> => {
  const key = credentialsKey(env);
  if (!key) throw new Error('CREDENTIALS_KEY is not configured');
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(context) },
    await key,
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
};

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Loopback, private, link-local, CGNAT, unspecified, multicast/reserved: never a provider's public address. */
const internalIPv4 = (a: number, b: number): boolean =>
  a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
  (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;

const internalHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  const v4 = IPV4.exec(host);
  if (v4) return internalIPv4(Number(v4[1]), Number(v4[2]));
  if (!host.includes(':')) return false;
  // IPv6 (the URL parser has normalised it): unspecified, loopback, IPv4-mapped/compatible, unique local, link-local.
  if (host === '::' || host === '::1') return true;
  const mapped = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const hi = Number.parseInt(mapped[1]!, 16);
    return internalIPv4(hi >> 8, hi & 0xff);
  }
  return /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host) || host.startsWith('ff');
};

/** Why the URL may not be a provider endpoint, or null when it may. */
export const endpointIssue = (url: string, env: Env): string | null => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Not a URL';
  }
  if ((env as { ALLOW_LOCAL_PROVIDERS?: string }).ALLOW_LOCAL_PROVIDERS === 'true') {
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? null : 'Use an http(s) URL';
  }
  if (parsed.protocol !== 'https:') return 'Use an https URL';
  if (parsed.username || parsed.password) return 'Put no credentials in the URL';
  if (internalHost(parsed.hostname)) return `${parsed.hostname} is a loopback, private or link-local address`;
  return null;
};
