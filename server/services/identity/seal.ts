/**
 * Seals a session's API token with a key derived from the cookie value (HKDF-SHA256 →
 * AES-256-GCM), so a copy of the database alone yields no usable token: the cookie,
 * which is stored only as a hash, is needed to open it.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'zonedeck bff session token v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyOf(cookie: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(cookie, 'utf8'), Buffer.alloc(0), INFO, 32));
}

/** A fresh random cookie value (256 bits). */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database stores in place of the cookie value. */
export function hashSessionSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function seal(cookie: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(cookie), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The plaintext, or null when the sealed value was not made with this cookie (or was altered). */
export function unseal(cookie: string, sealed: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(cookie), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
