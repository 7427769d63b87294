/** The search across zones without HTTP: its filters, networks, scopes, and the bulk change of what it finds. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Invalid } from '../../core/errors';
import type { FoundRecord } from '../../store/types/across-zones';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import type { WriteOptions } from '../changes/change-sets';
import type { SearchInput } from './search-query';

let h: ServiceHarness;
let alice: UserRow;
let bob: UserRow;

const as = (u: UserRow): WriteOptions => ({ source: 'api', actor: { userId: u.id, username: u.username, credential: 'token:1' } });
const w = { offset: 0, limit: 100 };

async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

/** A zone of `owner` holding these RRsets (made from a template of its own). */
async function zone(owner: UserRow, name: string, rrsets: Array<{ name: string; record_type: string; records: string[] }>) {
  const t = await h.services.templates.create({ userId: owner.id }, { name: `for ${name}`, rrsets });
  await h.services.zones.create(owner.id, { name }, as(owner), await h.services.templates.forNewZone(owner.id, t.id, {}));
}

/** What a search finds, as `zone name type content`. */
const lines = (rows: readonly FoundRecord[]) => rows.map((r) => `${r.zone} ${r.name} ${r.record_type} ${r.content}`);

async function find(q: SearchInput, user = alice, scope?: { zones: string[] }): Promise<string[]> {
  return lines((await h.services.recordSearch.search({ userId: user.id, scope }, q, w)).rows);
}

beforeEach(async () => {
  h = await serviceHarness();
  alice = await h.user('alice');
  bob = await h.user('bob');
  await zone(alice, 'a.test', [
    { name: 'www', record_type: 'A', records: ['192.0.2.10'] },
    { name: 'mail', record_type: 'A', records: ['192.0.2.20'] },
    { name: 'v6', record_type: 'AAAA', records: ['2001:db8::1'] },
    { name: 'note', record_type: 'TXT', records: ['hello world'] },
  ]);
  await zone(alice, 'b.test', [
    { name: 'www', record_type: 'A', records: ['198.51.100.5'] },
    { name: 'api', record_type: 'A', records: ['192.0.2.200'] },
  ]);
  // Bob's zone holds what alice searches for: she never finds it.
  await zone(bob, 'c.test', [
    { name: 'www', record_type: 'A', records: ['192.0.2.11'] },
    { name: 'note', record_type: 'TXT', records: ['hello world'] },
  ]);
});
afterEach(async () => {
  await h.close();
});

describe('searching records across zones', () => {
  it('finds by name, type and content, in the zones of the one who asks', async () => {
    expect(await find({ name: 'www' })).toEqual(['a.test www A 192.0.2.10', 'b.test www A 198.51.100.5']);
    expect(await find({ name: 'www.a.test.', match: 'exact' })).toEqual(['a.test www A 192.0.2.10']);
    expect(await find({ type: 'aaaa' })).toEqual(['a.test v6 AAAA 2001:db8::1']);
    expect(await find({ content: 'HELLO' })).toEqual(['a.test note TXT hello world']);
    expect(await find({ content: '192.0.2.', match: 'prefix' })).toEqual(['a.test mail A 192.0.2.20', 'a.test www A 192.0.2.10', 'b.test api A 192.0.2.200']);
    expect(await find({ content: 'hello world' }, bob)).toEqual(['c.test note TXT hello world']);
  });

  it('matches an exact address in any spelling of it', async () => {
    expect(await find({ content: '2001:DB8:0:0::1', match: 'exact' })).toEqual(['a.test v6 AAAA 2001:db8::1']);
  });

  it('finds addresses inside a network, never in zones of others', async () => {
    expect(await find({ content: '192.0.2.0/24' })).toEqual(['a.test mail A 192.0.2.20', 'a.test www A 192.0.2.10', 'b.test api A 192.0.2.200']);
    expect(await find({ content: '192.0.2.0/28' })).toEqual(['a.test www A 192.0.2.10']);
    expect(await find({ content: '192.0.0.0/16' })).toHaveLength(3);
    expect(await find({ content: '2001:db8::/32' })).toEqual(['a.test v6 AAAA 2001:db8::1']);
    expect(await find({ content: '192.0.2.0/24' }, bob)).toEqual(['c.test www A 192.0.2.11']);
    const page = await h.services.recordSearch.search({ userId: alice.id }, { content: '192.0.2.0/24' }, { offset: 1, limit: 1 });
    expect({ total: page.total, rows: lines(page.rows) }).toEqual({ total: 3, rows: ['a.test www A 192.0.2.10'] });
  });

  it('refuses an unknown type, a network of the other family than the type, and a bad network', async () => {
    expect((await refusal(find({ type: 'BOGUS' }))).fields).toHaveProperty('type');
    expect((await refusal(find({ type: 'AAAA', content: '192.0.2.0/24' }))).fields).toEqual({ type: 'a network in content matches A records only' });
    expect((await refusal(find({ content: '192.0.2.0/33' }))).fields).toHaveProperty('content');
    expect((await refusal(find({ zones: ['not a zone!'] }))).fields).toHaveProperty('zone');
  });

  it('searches only the zones asked for, within the zones a scoped credential may read', async () => {
    expect(await find({ name: 'www', zones: ['b.test'] })).toEqual(['b.test www A 198.51.100.5']);
    expect(await find({ name: 'www', zones: ['c.test'] })).toEqual([]);
    expect(await find({ name: 'www' }, alice, { zones: ['a.test'] })).toEqual(['a.test www A 192.0.2.10']);
    expect(await find({ name: 'www', zones: ['b.test'] }, alice, { zones: ['a.test'] })).toEqual([]);
  });
});

describe('changing what a search finds', () => {
  it('replaces the content found, in each zone under one batch, and nothing of others', async () => {
    const done = await h.services.recordSearch.bulk({ userId: alice.id }, { content: '192.0.2.0/24', action: 'replace', replacement: '203.0.113.1' }, as(alice));
    expect(done.batch).not.toBeNull();
    expect(done.zones.map((z) => z.zone)).toEqual(['a.test', 'b.test']);
    expect(done.zones[0]!.change.comment).toBe('bulk replace with 203.0.113.1');
    expect(await find({ content: '203.0.113.1', match: 'exact' })).toEqual(['a.test mail A 203.0.113.1', 'a.test www A 203.0.113.1', 'b.test api A 203.0.113.1']);
    expect(await find({ content: '192.0.2.0/24' }, bob)).toEqual(['c.test www A 192.0.2.11']);
  });

  it('keeps one record where the replacement makes two of an RRset the same', async () => {
    await zone(alice, 'd.test', [{ name: 'multi', record_type: 'A', records: ['203.0.113.5', '203.0.113.6', '203.0.113.77'] }]);
    await h.services.recordSearch.bulk({ userId: alice.id }, { zones: ['d.test'], content: '203.0.113.5', match: 'prefix', action: 'replace', replacement: '203.0.113.77' }, as(alice));
    expect(await find({ zones: ['d.test'], type: 'A' })).toEqual(['d.test multi A 203.0.113.6', 'd.test multi A 203.0.113.77']);
  });

  it('deletes what it finds; a dry run changes nothing', async () => {
    const preview = await h.services.recordSearch.bulk({ userId: alice.id }, { name: 'mail', action: 'delete' }, { ...as(alice), dryRun: true });
    expect(preview.batch).toBeNull();
    expect(preview.zones[0]!.change.removed).toEqual([expect.objectContaining({ name: 'mail', record_type: 'A', content: '192.0.2.20' })]);
    expect(await find({ name: 'mail' })).toHaveLength(1);
    await h.services.recordSearch.bulk({ userId: alice.id }, { name: 'mail', action: 'delete' }, as(alice));
    expect(await find({ name: 'mail' })).toEqual([]);
    expect(await find({ name: 'www' })).toHaveLength(2);
  });

  it('never touches the apex NS set', async () => {
    const done = await h.services.recordSearch.bulk({ userId: alice.id }, { type: 'NS', action: 'delete' }, as(alice));
    expect(done.zones).toEqual([]);
    expect(await find({ type: 'NS' })).toHaveLength(4);
  });

  it('refuses a bulk change without a selection, or with a replacement that is not content of the type found', async () => {
    expect((await refusal(h.services.recordSearch.bulk({ userId: alice.id }, { action: 'delete' }, as(alice)))).fields).toHaveProperty('content');
    const bad = await refusal(h.services.recordSearch.bulk({ userId: alice.id }, { name: 'www', action: 'replace', replacement: 'not an address' }, as(alice)));
    expect(bad).toBeInstanceOf(Invalid);
    expect(bad.fields!.replacement).toMatch(/^is not A content/);
    expect(await find({ name: 'www' })).toEqual(['a.test www A 192.0.2.10', 'b.test www A 198.51.100.5']);
  });
});
