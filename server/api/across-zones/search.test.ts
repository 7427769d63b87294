/**
 * The search across zones (every filter, CIDR, scopes, other users' zones never found)
 * and bulk changes as a batch: a preview, one change set per zone under one batch id shown in
 * the history, and the batch's revert (409 naming the zones changed since). SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;
const ZONES = ['a.example', 'b.example', 'c.example'];

beforeAll(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
  for (const [i, name] of ZONES.entries()) {
    expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name } })).status).toBe(201);
    const rrsets = [
      { name: 'www', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['192.0.2.10', `198.51.100.${i + 1}`] },
      { name: 'mail', record_type: 'AAAA', ttl: '300', changetype: 'REPLACE', records: ['2001:db8::10'] },
      { name: '@', record_type: 'TXT', ttl: '300', changetype: 'REPLACE', records: [`"site ${i}"`] },
    ];
    expect((await t.request('PATCH', `/api/v1/domains/${name}/rrsets`, { token: alice, body: { rrsets } })).status).toBe(200);
  }
  expect((await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'bob.example' } })).status).toBe(201);
  await t.request('POST', '/api/v1/domains/bob.example/records', { token: bob, body: { name: 'www', record_type: 'A', content: '192.0.2.10' } });
});
afterAll(() => t.close());

const find = async (query: string, token = alice) => {
  const res = await t.request('GET', `/api/v1/records?${query}`, { token });
  expect(res.status, query).toBe(200);
  return { total: res.headers.get('x-total-count'), hits: (await res.json()) as Array<{ zone: string; name: string; fqdn: string; record_type: string; content: string }> };
};
const brief = (hits: Array<{ zone: string; name: string; record_type: string; content: string }>) => hits.map((h) => `${h.zone} ${h.name} ${h.record_type} ${h.content}`);

describe('search across zones', () => {
  it('finds by content exact, prefix and substring, only in zones the user may read, each hit with its zone', async () => {
    const exact = await find('content=192.0.2.10&match=exact');
    expect(brief(exact.hits)).toEqual(['a.example www A 192.0.2.10', 'b.example www A 192.0.2.10', 'c.example www A 192.0.2.10']);
    expect(exact.hits[0]!.fqdn).toBe('www.a.example');
    expect(exact.total).toBe('3');
    expect((await find('content=198.51&match=prefix')).hits).toHaveLength(3);
    expect(brief((await find('content=SITE 1')).hits)).toEqual(['b.example @ TXT site 1']);
    // Bob finds only his own.
    expect(brief((await find('content=192.0.2.10&match=exact', bob)).hits)).toEqual(['bob.example www A 192.0.2.10']);
  });

  it('finds by full name, by type and by zone, and pages', async () => {
    expect(brief((await find('name=www.b.example&match=exact')).hits)).toEqual(['b.example www A 192.0.2.10', 'b.example www A 198.51.100.2']);
    expect((await find('name=mail.')).hits.map((h) => h.zone)).toEqual(ZONES);
    expect((await find('name=c.example&match=exact&type=txt')).hits.map((h) => h.content)).toEqual(['site 2']);
    expect((await find('type=AAAA&zone=a.example')).hits).toHaveLength(1);
    const page = await t.request('GET', '/api/v1/records?type=A&per_page=2&page=2', { token: alice });
    expect(page.headers.get('x-total-count')).toBe('6');
    expect(brief(await page.json())).toEqual(['b.example www A 192.0.2.10', 'b.example www A 198.51.100.2']);
  });

  it('matches A and AAAA content inside a network', async () => {
    expect(brief((await find(`content=${encodeURIComponent('198.51.100.2/31')}`)).hits)).toEqual(['b.example www A 198.51.100.2', 'c.example www A 198.51.100.3']);
    expect((await find(`content=${encodeURIComponent('2001:db8::/32')}`)).hits.map((h) => h.zone)).toEqual(ZONES);
    expect((await find(`content=${encodeURIComponent('192.0.0.0/8')}`)).total).toBe('3');
  });

  it('answers 400 naming the field for bad filters', async () => {
    for (const [q, field] of [
      ['type=NOPE', 'type'],
      ['content=192.0.2.1/24', 'content'],
      [`content=${encodeURIComponent('192.0.2.0/24')}&type=MX`, 'type'],
      ['match=fuzzy', 'match'],
      ['per_page=501', 'per_page'],
      [`name=${'a'.repeat(300)}`, 'name'],
    ]) {
      const res = await t.request('GET', `/api/v1/records?${q}`, { token: alice });
      expect(res.status, q).toBe(400);
      expect(Object.keys((await res.json()).error.fields)).toContain(field);
    }
  });

  it('searches and changes only the zones of a token scoped to zones', async () => {
    const res = await t.request('POST', '/api/v1/tokens', { token: alice, body: { label: 'two zones', scope: { zones: ['a.example', 'b.example'] } } });
    const scoped = (await res.json()).token as string;
    expect((await find('content=192.0.2.10&match=exact', scoped)).hits.map((h) => h.zone)).toEqual(['a.example', 'b.example']);
    expect((await find('content=192.0.2.10&match=exact&zone=c.example', scoped)).hits).toEqual([]);
    const dry = await t.request('POST', '/api/v1/records/bulk?dry_run=true', { token: scoped, body: { content: '192.0.2.10', match: 'exact', action: 'replace', replacement: '192.0.2.99' } });
    expect((await dry.json()).zones.map((z: { zone: string }) => z.zone)).toEqual(['a.example', 'b.example']);
  });
});

describe('bulk changes across zones', () => {
  it('previews, applies one change set per zone under one batch, and reverts the batch unless a zone changed since', async () => {
    const body = { content: '192.0.2.10', match: 'exact', action: 'replace', replacement: '192.0.2.20' };
    const dry = await t.request('POST', '/api/v1/records/bulk?dry_run=true', { token: alice, body });
    expect(dry.status).toBe(200);
    const preview = await dry.json();
    expect(preview.batch).toBeNull();
    expect(
      preview.zones.map((z: { zone: string; change: { added: Array<{ content: string }>; removed: Array<{ content: string }> } }) => [
        z.zone,
        z.change.removed.map((r) => r.content),
        z.change.added.map((r) => r.content),
      ]),
    ).toEqual(ZONES.map((z) => [z, ['192.0.2.10'], ['192.0.2.20']]));
    expect((await find('content=192.0.2.20&match=exact')).hits).toEqual([]);

    const bad = await t.request('POST', '/api/v1/records/bulk', { token: alice, body: { ...body, replacement: 'not-an-address' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('replacement');
    expect((await t.request('POST', '/api/v1/records/bulk', { token: alice, body: { action: 'delete' } })).status).toBe(400);

    const res = await t.request('POST', '/api/v1/records/bulk', { token: alice, body });
    expect(res.status).toBe(200);
    const { batch, zones } = await res.json();
    expect(zones).toHaveLength(3);
    expect(brief((await find('content=192.0.2.20&match=exact')).hits)).toEqual(ZONES.map((z) => `${z} www A 192.0.2.20`));
    expect(brief((await find('content=192.0.2.10&match=exact')).hits)).toEqual([]);
    expect(brief((await find('content=192.0.2.10&match=exact', bob)).hits)).toEqual(['bob.example www A 192.0.2.10']);
    const [latest] = await (await t.request('GET', '/api/v1/domains/b.example/changes', { token: alice })).json();
    expect(latest).toMatchObject({ batch, comment: 'bulk replace with 192.0.2.20' });
    const got = await (await t.request('GET', `/api/v1/batches/${batch}`, { token: alice })).json();
    expect(got.zones.map((z: { zone: string }) => z.zone)).toEqual(ZONES);

    // c.example changes again at www A: the batch revert names it, and applies nothing.
    await t.request('PATCH', '/api/v1/domains/c.example/rrsets', { token: alice, body: { rrsets: [{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.30'] }] } });
    const conflict = await t.request('POST', `/api/v1/batches/${batch}/revert`, { token: alice });
    expect(conflict.status).toBe(409);
    const error = (await conflict.json()).error;
    expect(Object.keys(error.fields)).toEqual(['c.example']);
    expect(error.message).toBe(`batch ${batch} cannot be reverted: c.example changed since`);
    expect(brief((await find('content=192.0.2.10&match=exact')).hits)).toEqual([]);

    // Put c.example back as the batch left it: now the batch reverts as one.
    await t.request('PATCH', '/api/v1/domains/c.example/rrsets', {
      token: alice,
      body: { rrsets: [{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.20', '198.51.100.3'] }] },
    });
    const reverted = await t.request('POST', `/api/v1/batches/${batch}/revert`, { token: alice, body: { comment: 'back to .10' } });
    expect(reverted.status).toBe(200);
    const again = await reverted.json();
    expect(again.batch).not.toBe(batch);
    expect(brief((await find('content=192.0.2.10&match=exact')).hits)).toEqual(ZONES.map((z) => `${z} www A 192.0.2.10`));
    const [undo] = await (await t.request('GET', '/api/v1/domains/a.example/changes', { token: alice })).json();
    expect(undo).toMatchObject({ source: 'revert', batch: again.batch, comment: 'back to .10' });
    expect((await t.request('POST', `/api/v1/batches/${batch}/revert`, { token: bob })).status).toBe(404);
  });

  it('deletes what a search finds, never the apex NS set', async () => {
    const res = await t.request('POST', '/api/v1/records/bulk', { token: alice, body: { type: 'NS', action: 'delete' } });
    expect(res.status).toBe(200);
    expect((await res.json()).zones.every((z: { change: { id: number | null } }) => z.change.id === null)).toBe(true);
    const del = await t.request('POST', '/api/v1/records/bulk', { token: alice, body: { name: 'mail.', match: 'prefix', type: 'AAAA', action: 'delete' } });
    expect(del.status).toBe(200);
    expect((await find('type=AAAA')).hits).toEqual([]);
  });
});
