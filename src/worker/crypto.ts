// Hashes and random tokens from WebCrypto (available in workerd and Node alike).
const hex = (bytes: ArrayBuffer | Uint8Array): string =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** Hex SHA-256 of the text's UTF-8 bytes. */
export const sha256Text = async (text: string): Promise<string> =>
  hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/** Bytes as base64url without padding. */
export const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** The bytes of base64url text (padding optional); throws when it is not base64url. */
export const fromBase64url = (text: string): Uint8Array =>
  Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (ch) => ch.charCodeAt(0));

/** `bytes` random bytes, base64url without padding. */
export const randomToken = (bytes: number): string => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

export const randomHex = (bytes: number): string => hex(crypto.getRandomValues(new Uint8Array(bytes)));
