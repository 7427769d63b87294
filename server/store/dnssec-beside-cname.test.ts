/**
 * The database's own CNAME exclusivity lets a signed zone's RRSIG and NSEC stand beside a CNAME
 * (RFC 4035 §2.5), in either order of writing, and still refuses every other type there. Runs on
 * SQLite and on PostgreSQL.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let zoneId: number;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  const alice = (await t.services.accounts.userByName('alice')).id;
  zoneId = (await t.services.zones.create(alice, { name: 'example.com' })).id;
});
afterEach(() => t.close());

const at = new Date().toISOString();
const insert = (name: string, record_type: string, content: string) =>
  t.forge.transaction((tx) => tx.records.insertMany([{ domain_id: zoneId, name, record_type, content, ttl: 300, disabled: 0, created_at: at, updated_at: at }]));
const SIG = (type: string) => `${type} 13 3 300 20261228000000 20261128000000 12345 example.com AAAA`;

it('RRSIG and NSEC stand beside a CNAME, written before or after it; nothing else does', async () => {
  await insert('alias', 'CNAME', 'www.example.com');
  await insert('alias', 'RRSIG', SIG('CNAME'));
  await insert('alias', 'NSEC', 'www.example.com CNAME RRSIG NSEC');
  await expect(insert('alias', 'A', '192.0.2.1')).rejects.toThrow(/cname_exclusive/);
  await insert('later', 'RRSIG', SIG('CNAME'));
  await insert('later', 'CNAME', 'www.example.com');
  await expect(insert('later', 'CNAME', 'other.example.com')).rejects.toThrow(/cname_exclusive/);
  await insert('data', 'A', '192.0.2.1');
  await expect(insert('data', 'CNAME', 'www.example.com')).rejects.toThrow(/cname_exclusive/);
});
