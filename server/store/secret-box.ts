/**
 * Secrets at rest: TSIG secrets and DNSSEC private keys (and, later, TOTP secrets)
 * are stored sealed with AES-256-GCM under a key kept outside the database — `SECRETS_KEY` (base64
 * of 32 octets) or, when it is unset, the 0600 file `secrets.key` beside the SQLite database,
 * created on first start. A copy of the database (or a pg_dump) alone reveals no secret.
 *
 * Stored form: `enc:v1:<key id>:<base64 of 12-octet IV | ciphertext | 16-octet tag>`, the key id
 * the first 8 hex digits of SHA-256 of the key, so a wrong key is named as such instead of failing
 * as a bad tag. The additional data binds a value to its place (`tsig:<key name>`,
 * `dnssec:<zone id>`): a sealed value copied into another row does not open there.
 * A value without the `enc:` prefix is one stored before this (migrated on open).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const KEY_FILE = 'secrets.key';
const PREFIX = 'enc:v1:';

/** The key is not the one the stored secrets were sealed with (or is malformed). */
export class SecretsKeyError extends Error {}

export class SecretBox {
  readonly id: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new SecretsKeyError('SECRETS_KEY must be the base64 of 32 octets (openssl rand -base64 32)');
    this.id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  seal(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  }

  /** The plain value of a stored one; a value stored before sealing existed comes back as it is. */
  open(stored: string, aad: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const rest = stored.slice(PREFIX.length);
    const colon = rest.indexOf(':');
    const id = rest.slice(0, colon);
    if (id !== this.id) {
      throw new SecretsKeyError(`a secret in the database was sealed under key ${id}, but this key is ${this.id}: start with the SECRETS_KEY (or secrets.key file) the database was written with`);
    }
    const raw = Buffer.from(rest.slice(colon + 1), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    try {
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`a sealed secret (${aad}) does not open under key ${this.id}: it was altered or moved to another row`);
    }
  }
}

/** The id of the key a stored value was sealed under (`3f1a09c2`); null for a value stored in clear. */
export function sealedKeyId(stored: string): string | null {
  return SecretBox.isSealed(stored) ? stored.slice(PREFIX.length, stored.indexOf(':', PREFIX.length)) : null;
}

/** SECRETS_KEY's value as a key; SecretsKeyError when it is not the base64 of 32 octets. */
export function keyFromBase64(text: string): Buffer {
  const t = text.trim();
  const key = Buffer.from(t, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t) || key.length !== 32) throw new SecretsKeyError('SECRETS_KEY must be the base64 of 32 octets (openssl rand -base64 32)');
  return key;
}

/**
 * The key file beside the database (`<dir>/secrets.key`, 0600), created with a random key when
 * missing: what a single node uses when SECRETS_KEY is unset. `create: false` (a reader, which
 * writes nothing) only reads it: the writer made it when it first opened the database.
 */
export function keyFromFile(dir: string, { create = true }: { create?: boolean } = {}): Buffer {
  const file = path.join(dir, KEY_FILE);
  try {
    return keyFromBase64(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (!create) throw new SecretsKeyError(`there is no key file ${file}: the process that writes the database makes it when it first opens it`);
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // 'wx': never overwrite a key another process wrote in the meantime.
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return keyFromBase64(fs.readFileSync(file, 'utf8'));
    throw e;
  }
  return key;
}

/**
 * Seals every secret stored before sealing existed (an upgrade from a version that kept them in
 * clear), and checks that the key opens what is already sealed: a wrong SECRETS_KEY stops the start
 * with a clear message rather than failing later at the first TSIG message. Idempotent.
 */
export async function sealStoredSecrets(db: import('kysely').Kysely<import('./schema').Database>, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (const r of await db.selectFrom('tsig_keys').select(['id', 'name', 'secret']).execute()) {
    if (SecretBox.isSealed(r.secret)) box.open(r.secret, `tsig:${r.name}`);
    else {
      await db
        .updateTable('tsig_keys')
        .set({ secret: box.seal(r.secret, `tsig:${r.name}`) })
        .where('id', '=', r.id)
        .execute();
      sealed++;
    }
  }
  for (const r of await db.selectFrom('dnssec_keys').select(['id', 'domain_id', 'private_key']).execute()) {
    if (SecretBox.isSealed(r.private_key)) box.open(r.private_key, `dnssec:${r.domain_id}`);
    else {
      await db
        .updateTable('dnssec_keys')
        .set({ private_key: box.seal(r.private_key, `dnssec:${r.domain_id}`) })
        .where('id', '=', r.id)
        .execute();
      sealed++;
    }
  }
  // TOTP and webhook secrets are sealed from the start (migrations 0017, 0030): only checked.
  for (const r of await db.selectFrom('totp_factors').select(['user_id', 'secret']).execute()) box.open(r.secret, `totp:${r.user_id}`);
  for (const r of await db.selectFrom('webhooks').select(['id', 'secret']).execute()) box.open(r.secret, `webhook:${r.id}`);
  return sealed;
}

/**
 * Re-seals every secret under `next` (`npm run cli -- secrets rotate`), in one transaction: after
 * it, only the new key opens them. Returns how many were re-sealed.
 */
export async function resealSecrets(db: import('kysely').Kysely<import('./schema').Database>, from: SecretBox, next: SecretBox): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let n = 0;
    for (const r of await trx.selectFrom('tsig_keys').select(['id', 'name', 'secret']).execute()) {
      await trx
        .updateTable('tsig_keys')
        .set({ secret: next.seal(from.open(r.secret, `tsig:${r.name}`), `tsig:${r.name}`) })
        .where('id', '=', r.id)
        .execute();
      n++;
    }
    for (const r of await trx.selectFrom('dnssec_keys').select(['id', 'domain_id', 'private_key']).execute()) {
      await trx
        .updateTable('dnssec_keys')
        .set({ private_key: next.seal(from.open(r.private_key, `dnssec:${r.domain_id}`), `dnssec:${r.domain_id}`) })
        .where('id', '=', r.id)
        .execute();
      n++;
    }
    // Deleted zones' keys, in their archives (migration 0019): sealed as they were stored, under the zone's id.
    for (const r of await trx.selectFrom('deleted_zones').select(['id', 'domain_id', 'snapshot']).execute()) {
      const snapshot = JSON.parse(r.snapshot) as { keys?: Array<{ private_key: string }> };
      if (!snapshot.keys?.length) continue;
      for (const k of snapshot.keys) k.private_key = next.seal(from.open(k.private_key, `dnssec:${r.domain_id}`), `dnssec:${r.domain_id}`);
      await trx
        .updateTable('deleted_zones')
        .set({ snapshot: JSON.stringify(snapshot) })
        .where('id', '=', r.id)
        .execute();
      n += snapshot.keys.length;
    }
    for (const r of await trx.selectFrom('totp_factors').select(['user_id', 'secret']).execute()) {
      await trx
        .updateTable('totp_factors')
        .set({ secret: next.seal(from.open(r.secret, `totp:${r.user_id}`), `totp:${r.user_id}`) })
        .where('user_id', '=', r.user_id)
        .execute();
      n++;
    }
    for (const r of await trx.selectFrom('webhooks').select(['id', 'secret']).execute()) {
      await trx
        .updateTable('webhooks')
        .set({ secret: next.seal(from.open(r.secret, `webhook:${r.id}`), `webhook:${r.id}`) })
        .where('id', '=', r.id)
        .execute();
      n++;
    }
    return n;
  });
}

/** Modes that let others than the owner read: DATA_DIR should be 0700 and its files 0600. */
export function readableByOthers(file: string): boolean {
  try {
    return (fs.statSync(file).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}

/**
 * DATA_DIR 0700 and the database's files 0600, whatever the umask; the ones that
 * stay readable by others (another owner, a read-only mount) are returned for the start to warn of.
 */
export function restrictDataDir(dir: string, files: readonly string[]): string[] {
  const out: string[] = [];
  for (const [p, mode] of [[dir, 0o700] as const, ...files.map((f) => [path.join(dir, f), 0o600] as const)]) {
    if (!fs.existsSync(p)) continue;
    try {
      fs.chmodSync(p, mode);
    } catch {
      /* reported below */
    }
    if (readableByOthers(p)) out.push(p);
  }
  return out;
}
