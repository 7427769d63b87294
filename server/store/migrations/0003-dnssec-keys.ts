/** DNSSEC signing keys: one CSK per signed zone, two during a rollover. */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  let table = db.schema.createTable('dnssec_keys');
  table = dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    // Removing a zone removes its keys; nothing else points at them.
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('algorithm', 'integer', (c) => c.notNull())
    .addColumn('key_tag', 'integer', (c) => c.notNull())
    // The DNSKEY public key field (RFC 6605 §4: the 64-octet point, base64).
    .addColumn('public_key', 'text', (c) => c.notNull())
    // SHA-256 DS digest (RFC 4509), hex: what the parent publishes.
    .addColumn('ds_digest', 'text', (c) => c.notNull())
    // PKCS#8 DER, base64. Read only by the DNS server; no API view selects it.
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dnssec_keys_domain').on('dnssec_keys').column('domain_id').execute();
}
