/**
 * Webhooks: HTTP endpoints of a user that hear of what happens to their zones.
 *
 * - `webhooks`: the endpoint's URL, the events it takes (JSON list), the zones it is limited to
 *   (JSON list of names; null: every zone its owner may read), the team whose zones it covers
 *   (null: the user's), a description, the secret that signs each body (sealed at rest like a
 *   TSIG secret, bound to the webhook's id), whether it is active.
 * - `webhook_deliveries`: one event for one webhook: its body as sent (the signature is over these
 *   octets), its state (`pending`, `delivered`, `failed`), every attempt (JSON list of time, status
 *   code or error, milliseconds), when the next attempt is due, and the lease a node holds while it
 *   sends one, so that two nodes never send the same attempt.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const table = (name: string) => {
    const t = db.schema.createTable(name);
    return dialect === 'postgres' ? t.addColumn('id', 'serial', (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };
  await table('webhooks')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('zones', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').columns(['user_id', 'id']).execute();
  await table('webhook_deliveries')
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('zone', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The driver's question, "which pending deliveries are due", reads this index alone.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
}
