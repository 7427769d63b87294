/**
 * Secrets: API tokens (192 random bits, stored as SHA-256, compared in constant time)
 * and passwords (scrypt with a per-user salt).
 */
import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const TOKEN_PREFIX = 'zd_';
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(24).toString('base64url');
}

export function hashToken(token: string): string {
  // The one-shot form: every API request hashes its token, and a Hash object costs twice as much.
  return hash('sha256', token, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

export function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.keylen, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(key, expected);
}

/** A hash no password matches, verified against when a user does not exist (same timing). */
export const DUMMY_HASH = `scrypt$16384$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;
