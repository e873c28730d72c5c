// Bring-your-own provider credentials: keys encrypted at rest with AES-GCM (WebCrypto) under the Worker secret
// CREDENTIALS_KEY (32 random bytes, base64), and the rules an endpoint URL must meet: https, no loopback,
// private, link-local or otherwise internal address (in any IPv6 form) and no single-label name, unless the
// operator allows local endpoints (ALLOW_LOCAL_PROVIDERS=true, for development against a server on this machine).

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

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (lower case, `::` at most once, no dotted tail). */
const ipv6Groups = (host: string): number[] => {
  const [head = '', tail] = host.split('::');
  const part = (text: string | undefined) => (text ? text.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const [left, right] = [part(head), part(tail)];
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
};

/** An IPv4 address carried in two IPv6 groups, when it is an internal one. */
const internalEmbedded = (hi: number, lo: number): string | null =>
  internalIPv4(hi >> 8, hi & 0xff) ? `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}` : null;

const zeros = (groups: readonly number[]): boolean => groups.every((g) => g === 0);

/** Why an IPv6 address is not a provider's public address, or null. */
const internalIPv6 = (host: string): string | null => {
  const g = ipv6Groups(host);
  if (zeros(g.slice(0, 7)) && g[7]! <= 1) return `${host} is the unspecified or loopback IPv6 address`;
  // IPv4 inside IPv6: compatible (::a.b.c.d), mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), NAT64
  // (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::) reach the IPv4 address they carry.
  const embedded: [string, string | null][] = [
    ['IPv4-compatible', zeros(g.slice(0, 6)) ? internalEmbedded(g[6]!, g[7]!) : null],
    ['IPv4-mapped', zeros(g.slice(0, 5)) && g[5] === 0xffff ? internalEmbedded(g[6]!, g[7]!) : null],
    ['IPv4-translated', zeros(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0 ? internalEmbedded(g[6]!, g[7]!) : null],
    ['NAT64', g[0] === 0x64 && g[1] === 0xff9b && zeros(g.slice(2, 6)) ? internalEmbedded(g[6]!, g[7]!) : null],
    ['6to4', g[0] === 0x2002 ? internalEmbedded(g[1]!, g[2]!) : null],
  ];
  for (const [form, v4] of embedded) if (v4 !== null) return `${host} is the ${form} IPv6 form of ${v4}, a loopback, private or link-local address`;
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return `${host} is in 64:ff9b:1::/48, the NAT64 prefix of local networks`;
  if ((g[0]! & 0xfe00) === 0xfc00) return `${host} is a unique local IPv6 address`;
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0) return `${host} is a link-local or site-local IPv6 address`;
  if ((g[0]! & 0xff00) === 0xff00) return `${host} is a multicast IPv6 address`;
  return null;
};

/** Why a URL's host is not a provider's public address, or null. Names are not resolved here. */
const internalHostIssue = (hostname: string): string | null => {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host.includes(':')) return internalIPv6(host);
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return `${hostname} is a loopback or local-network name`;
  }
  const v4 = IPV4.exec(host);
  if (v4) return internalIPv4(Number(v4[1]), Number(v4[2])) ? `${hostname} is a loopback, private or link-local address` : null;
  // A name of one label is looked up in the hosts file or the local network's search domains, never in public DNS.
  if (!host.includes('.')) return `${hostname} is a single-label host name (a hosts-file or local-network name): use a fully qualified public name`;
  return null;
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
  return internalHostIssue(parsed.hostname);
};
