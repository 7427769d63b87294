/**
 * RFC 2136 updates applied to the store: the five prerequisite kinds (§2.4) with their RCODEs,
 * the update kinds (§2.5), one change set per update, nothing applied on any failure, and the
 * key's owner and scope.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScopeInput } from '../../core/scope';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { UPDATE_RCODE as R, type UpdateRR } from './dynamic-updates';

let t: TestApp;
let aliceId: number;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  await t.user('bob');
  aliceId = (await t.services.accounts.userByName('alice')).id;
  await t.services.zones.create(aliceId, { name: 'example.com' });
  await t.services.records.create(aliceId, 'example.com', { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' });
  await t.services.records.create(aliceId, 'example.com', { name: 'www', record_type: 'A', content: '192.0.2.2', ttl: '300' });
  await t.services.records.create(aliceId, 'example.com', { name: 'alias', record_type: 'CNAME', content: 'www.example.com' });
  await key('alice', 'alice-key');
});
afterEach(() => t.close());

async function key(user: string, name: string, scope: ScopeInput = {}) {
  const u = await t.services.accounts.userByName(user);
  return t.services.tsigKeys.create(u.id, { name, scope });
}

const rr = (name: string, type: string, cls: UpdateRR['cls'], content: string | null = null, ttl = 0): UpdateRR => ({ name, type, cls, content, ttl });
const apply = (prerequisites: UpdateRR[], updates: UpdateRR[], keyName = 'alice-key', zone = 'example.com', address = '192.0.2.53') =>
  t.services.updates.apply({ zone, prerequisites, updates, key: keyName, address });

async function contents(name: string, type?: string): Promise<string[]> {
  const zone = (await t.services.store.domains.byName('example.com'))!;
  return (await t.services.store.records.atName(zone.id, name))
    .filter((r) => !type || r.record_type === type)
    .map((r) => `${r.record_type} ${r.ttl} ${r.content}`)
    .sort();
}
const serial = async () => (await t.services.store.domains.byName('example.com'))!.serial_number;

describe('prerequisites (RFC 2136 §2.4, §3.2)', () => {
  const add = [rr('new', 'TXT', 'zone', 'applied', 60)];

  it.each([
    ['name is in use', rr('www', 'ANY', 'any'), rr('nothing', 'ANY', 'any'), R.NXDOMAIN],
    ['name is in use (the apex, by its SOA)', rr('@', 'ANY', 'any'), rr('nothing.deep', 'ANY', 'any'), R.NXDOMAIN],
    ['RRset exists', rr('www', 'A', 'any'), rr('www', 'AAAA', 'any'), R.NXRRSET],
    ['RRset exists (the apex SOA)', rr('@', 'SOA', 'any'), rr('www', 'TXT', 'any'), R.NXRRSET],
    ['name is not in use', rr('nothing', 'ANY', 'none'), rr('www', 'ANY', 'none'), R.YXDOMAIN],
    ['RRset does not exist', rr('www', 'AAAA', 'none'), rr('www', 'A', 'none'), R.YXRRSET],
  ])('%s: passes, and fails with its RCODE changing nothing', async (_, ok, failing, rcode) => {
    const before = await serial();
    expect(await apply([failing], add)).toBe(rcode);
    expect(await contents('new')).toEqual([]);
    expect(await serial()).toBe(before);
    expect(await apply([ok], add)).toBe(R.NOERROR);
    expect(await contents('new')).toEqual(['TXT 60 applied']);
  });

  it('RRset exists (value dependent): the whole set must match, TTL aside', async () => {
    const both = [rr('www', 'A', 'zone', '192.0.2.2'), rr('www', 'A', 'zone', '192.0.2.1')];
    expect(await apply([both[0]!], add)).toBe(R.NXRRSET);
    expect(await apply([...both, rr('www', 'A', 'zone', '192.0.2.3')], add)).toBe(R.NXRRSET);
    expect(await apply([rr('www', 'TYPE65280', 'zone', null)], add)).toBe(R.NXRRSET);
    expect(await contents('new')).toEqual([]);
    expect(await apply(both, add)).toBe(R.NOERROR);
  });
});

describe('updates (RFC 2136 §2.5, §3.4)', () => {
  it('adds, deletes a record, an RRset and a whole name, as one change set with source rfc2136 and the key as credential', async () => {
    const zone = (await t.services.store.domains.byName('example.com'))!;
    const before = zone.serial_number;
    const code = await apply(
      [],
      [
        rr('_acme-challenge', 'TXT', 'zone', 'token-1', 120),
        rr('_acme-challenge', 'TXT', 'zone', 'token-2', 120),
        rr('www', 'A', 'none', '192.0.2.1'),
        rr('mail', 'MX', 'zone', '10 mx.example.net.', 300),
        rr('alias', 'ANY', 'any'),
        rr('@', 'ANY', 'any'), // the apex SOA and NS survive (§3.4.2.3)
        rr('nothing', 'A', 'none', '192.0.2.99'), // deleting what is not there: nothing
      ],
    );
    expect(code).toBe(R.NOERROR);
    expect(await contents('_acme-challenge')).toEqual(['TXT 120 token-1', 'TXT 120 token-2']);
    expect(await contents('www')).toEqual(['A 300 192.0.2.2']);
    expect(await contents('mail')).toEqual(['MX 300 10 mx.example.net']);
    expect(await contents('alias')).toEqual([]);
    expect(await contents('@', 'NS')).toHaveLength(2);
    const [change] = (await t.services.changes.page(zone, {}, { offset: 0, limit: 1 })).rows;
    expect(change).toMatchObject({ serial_before: before, source: 'rfc2136', actor: { username: 'alice', credential: 'tsig:alice-key' }, added_count: 3, removed_count: 2 });
    expect(await serial()).toBe(change!.serial_after);
  });

  it('a record added to an RRset sets the TTL of the whole set (RFC 2181 §5.2), and an SOA add is ignored', async () => {
    expect(await apply([], [rr('www', 'A', 'zone', '192.0.2.3', 30), rr('@', 'SOA', 'zone', null, 30)])).toBe(R.NOERROR);
    expect(await contents('www')).toEqual(['A 30 192.0.2.1', 'A 30 192.0.2.2', 'A 30 192.0.2.3']);
  });

  it.each([
    ['a CNAME beside data', [rr('new', 'TXT', 'zone', 'x', 60), rr('www', 'CNAME', 'zone', 'other.example.net.', 60)]],
    ['data beside a CNAME', [rr('new', 'TXT', 'zone', 'x', 60), rr('alias', 'TXT', 'zone', 'x', 60)]],
    ['a change to the managed apex NS set', [rr('new', 'TXT', 'zone', 'x', 60), rr('@', 'NS', 'zone', 'ns.example.net.', 60)]],
    ['a type outside the registry', [rr('new', 'TXT', 'zone', 'x', 60), rr('odd', 'TYPE65280', 'zone', null, 60)]],
  ])('refuses the whole update for %s', async (_, updates) => {
    const before = await serial();
    expect(await apply([], updates)).toBe(R.REFUSED);
    expect(await contents('new')).toEqual([]);
    expect(await serial()).toBe(before);
  });
});

describe('the key', () => {
  it('is refused on a zone its owner does not hold, or one that does not exist', async () => {
    await key('bob', 'bob-key');
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'bob-key')).toBe(R.REFUSED);
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'alice-key', 'example.org')).toBe(R.REFUSED);
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'revoked-key')).toBe(R.REFUSED);
    expect(await contents('x')).toEqual([]);
  });

  it('does only what its scope allows, or nothing at all', async () => {
    await key('alice', 'acme', { zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] });
    expect(await apply([], [rr('_acme-challenge.www', 'TXT', 'zone', 'proof', 60)], 'acme')).toBe(R.NOERROR);
    expect(await apply([], [rr('_acme-challenge.www', 'TXT', 'zone', 'again', 60), rr('www', 'A', 'zone', '192.0.2.9', 60)], 'acme')).toBe(R.REFUSED);
    expect(await apply([], [rr('_acme-challenge', 'A', 'zone', '192.0.2.9', 60)], 'acme')).toBe(R.REFUSED);
    // Deleting a whole name deletes outside the scope too: refused.
    expect(await apply([], [rr('www', 'ANY', 'any')], 'acme')).toBe(R.REFUSED);
    expect(await contents('_acme-challenge.www')).toEqual(['TXT 60 proof']);

    await key('alice', 'other-zone', { zones: ['example.org'] });
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'other-zone')).toBe(R.REFUSED);
    await key('alice', 'ro', { read_only: true });
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'ro')).toBe(R.REFUSED);
    // Prerequisites alone change nothing, so a read-only key may ask them.
    expect(await apply([rr('www', 'A', 'any')], [], 'ro')).toBe(R.NOERROR);
    await key('alice', 'lan', { allowed_ips: ['10.0.0.0/8'] });
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'lan', 'example.com', '192.0.2.53')).toBe(R.REFUSED);
    expect(await apply([], [rr('x', 'TXT', 'zone', 'x', 60)], 'lan', 'example.com', '10.1.2.3')).toBe(R.NOERROR);
  });
});
