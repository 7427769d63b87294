/** Migration 0025 on both databases: zones there before it transfer as they did (empty lists, no key), and the columns take a zone's own settings. */
import { type Kysely, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, type Dialect } from '../migrate';

async function check(db: Kysely<any>, dialect: Dialect) {
  await migrate(db, dialect);
  const at = '2026-01-01T00:00:00.000Z';
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${at})`.execute(db);
  await sql`insert into domains (user_id, name, serial_number, refresh_interval, retry_interval, expire_interval, minimum_ttl, dnssec_enabled, created_at, updated_at)
            values (1, 'example.com', 1, 1, 1, 1, 1, 0, ${at}, ${at})`.execute(db);
  const read = async () =>
    (await sql<{ also_notify: string; allow_transfer: string; transfer_tsig_key: string | null }>`select also_notify, allow_transfer, transfer_tsig_key from domains`.execute(db)).rows;
  expect(await read()).toEqual([{ also_notify: '[]', allow_transfer: '[]', transfer_tsig_key: null }]);
  await sql`update domains set also_notify = ${'["192.0.2.1:53"]'}, allow_transfer = ${'["192.0.2.0/24"]'}, transfer_tsig_key = ${'xfr'}`.execute(db);
  expect(await read()).toEqual([{ also_notify: '["192.0.2.1:53"]', allow_transfer: '["192.0.2.0/24"]', transfer_tsig_key: 'xfr' }]);
}

describe('0025-zone-transfer-settings', () => {
  onBothStores('gives every zone empty transfer lists and no key', check);
});
