/**
 * Every secret the server keeps is hashed or encrypted here, and every comparison of secrets is
 * constant-time. Passwords and PINs: scrypt with a per-hash salt. Refresh tokens and OTPs: HMAC
 * keyed by a server key, so a stolen table is useless without the key (a 6-digit code could be
 * brute-forced from a plain hash). TOTP secrets and integration API keys must be read back, so
 * they are encrypted with AES-256-GCM.
 */
import {
  createCipheriv,
  createHash,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  randomInt,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function scryptAsync(secret: string, salt: Buffer, N: number, r: number, p: number, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, keylen, { N, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keylen);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(secret, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), expected.length);
  return timingSafeEqual(key, expected);
}

/** A hash of a random password, verified against when the account does not exist so that timing does not tell. */
export const DUMMY_HASH = await hashSecret(randomBytes(16).toString('hex'));

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const randomDigits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

/**
 * Short, and safe to print or keep in the database: it tells two signing secrets apart without
 * revealing either (the first 16 hex digits of its SHA-256; `printf %s "$JWT_SECRET" | sha256sum`).
 */
export const secretFingerprint = (secret: string) => `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;

/** Keys derived from the one configured secret, each for one purpose. */
export interface Keys {
  /** HS256 key, prepared once (jose would otherwise import raw bytes on every verification). */
  jwt: KeyObject;
  /** HMAC a token, code or other secret for storage. */
  digest(value: string): string;
  /** HMAC a link's terms (a file and its expiry), so a shared link cannot be stretched or moved. */
  signLink(value: string): string;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function deriveKeys(secret: string): Keys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'duka', info, 32));
  const jwt = createSecretKey(derive('jwt-hs256'));
  const mac = derive('secret-digest');
  const links = derive('signed-links');
  const enc = derive('aes-256-gcm');
  return {
    jwt,
    digest: (value) => createHmac('sha256', mac).update(value).digest('base64url'),
    signLink: (value) => createHmac('sha256', links).update(value).digest('base64url'),
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', enc, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [, iv, tag, data] = sealed.split('.');
      const decipher = createDecipheriv('aes-256-gcm', enc, Buffer.from(iv!, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data!, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
