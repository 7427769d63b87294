/** Migration 0028 on both databases: keys there before it go on exactly as the server used them (a CSK, published, signing, listed for the parent), zones keep the default policy and no rollover. */
import { type Kysely, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, MIGRATIONS, type Dialect, type Step } from '../migrate';

async function check(db: Kysely<any>, dialect: Dialect) {
  const before: Record<string, Step> = {};
  for (const name of MIGRATIONS.filter((n) => n < '0028')) before[name] = await import(`./${name}.ts`);
  await migrate(db, dialect, before);
  const at = '2026-01-01T00:00:00.000Z';
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${at})`.execute(db);
  await sql`insert into domains (user_id, name, serial_number, refresh_interval, retry_interval, expire_interval, minimum_ttl, dnssec_enabled, created_at, updated_at)
            values (1, 'example.com', 1, 1, 1, 1, 1, 1, ${at}, ${at})`.execute(db);
  await sql`insert into dnssec_keys (domain_id, flags, algorithm, key_tag, public_key, ds_digest, private_key, created_at)
            values (1, 257, 13, 4711, 'AA==', 'AB', 'x', ${at})`.execute(db);
  await migrate(db, dialect);
  const keys = (await sql<Record<string, unknown>>`select role, state, state_at, published, signing, in_cds from dnssec_keys`.execute(db)).rows;
  expect(keys.map((k) => ({ ...k, published: Number(k.published), signing: Number(k.signing), in_cds: Number(k.in_cds) }))).toEqual([
    { role: 'csk', state: 'active', state_at: at, published: 1, signing: 1, in_cds: 1 },
  ]);
  expect((await sql`select dnssec_policy, dnssec_rollover from domains`.execute(db)).rows).toEqual([{ dnssec_policy: null, dnssec_rollover: null }]);
  expect((await sql`select count(*) as n from dnssec_watch`.execute(db)).rows.map((r: any) => Number(r.n))).toEqual([0]);
}

describe('0028-dnssec-policy', () => {
  onBothStores('keeps every key as it was used, with the default policy', check);
});
