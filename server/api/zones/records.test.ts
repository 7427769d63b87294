import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com', minimum_ttl: 600 } });
});
afterEach(() => t.close());

const base = '/api/v1/domains/example.com/records';
const add = (body: unknown) => t.request('POST', base, { body });
const serial = async () => (await (await t.request('GET', '/api/v1/domains/example.com')).json()).serial_number as number;
const list = async (q = '') => (await t.request('GET', `${base}${q}`)).json();

describe('POST /domains/:domain_name/records', () => {
  it('creates a record (200) with id and fqdn, ttl as a string, and bumps the serial', async () => {
    const before = await serial();
    const res = await add({ name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: expect.any(Number), name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300', fqdn: 'www.example.com' });
    expect(await serial()).toBeGreaterThan(before);
  });

  it("defaults the ttl to the zone's minimum_ttl and names the apex @", async () => {
    const r = await (await add({ name: '', record_type: 'txt', content: 'v=spf1 -all' })).json();
    expect(r).toMatchObject({ name: '@', record_type: 'TXT', ttl: '600', fqdn: 'example.com' });
  });

  it('canonicalizes content per type', async () => {
    const cases = [
      [{ name: 'v6', record_type: 'AAAA', content: '2001:DB8:0:0::1' }, '2001:db8::1'],
      [{ name: '@', record_type: 'MX', content: '10 Mail.Example.com.' }, '10 mail.example.com'],
      [{ name: '_sip._tcp', record_type: 'SRV', content: '10 5 5060 SIP.example.com.' }, '10 5 5060 sip.example.com'],
      [{ name: '@', record_type: 'CAA', content: '0 issue letsencrypt.org' }, '0 issue "letsencrypt.org"'],
      [{ name: 'alias', record_type: 'CNAME', content: 'www.example.com.' }, 'www.example.com'],
      [{ name: 'sub', record_type: 'NS', content: 'ns.other.net' }, 'ns.other.net'],
      [{ name: '1', record_type: 'PTR', content: 'host.example.com' }, 'host.example.com'],
      [{ name: 'WWW.example.com.', record_type: 'A', content: '192.0.2.9' }, '192.0.2.9'],
    ] as const;
    for (const [body, content] of cases) {
      const res = await add(body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect((await res.json()).content).toBe(content);
    }
    expect((await list('?name=www'))[0]).toMatchObject({ name: 'www', fqdn: 'www.example.com' });
  });

  it.each([
    [{ record_type: 'A', content: '192.0.2.1', ttl: false }, { ttl: 'must be a whole number of seconds, e.g. "3600" or 3600' }],
    [{ record_type: 'A', content: '192.0.2.1', ttl: 30.5 }, { ttl: 'must be a whole number of seconds between 0 and 2147483647' }],
    [{ record_type: 'A', content: '192.0.2.1', ttl: '-1' }, { ttl: 'must be a whole number of seconds between 0 and 2147483647' }],
    [{ record_type: 'A', content: '192.0.2.1', ttl: '2147483648' }, { ttl: 'must be a whole number of seconds between 0 and 2147483647' }],
    [{ record_type: 'A', content: '999.0.2.1' }, { content: expect.stringMatching(/0–255/) }],
    [{ record_type: 'AAAA', content: '192.0.2.1' }, { content: expect.stringMatching(/IPv6/) }],
    [{ record_type: 'MX', content: 'mail.example.com' }, { content: expect.stringMatching(/preference host/) }],
    [{ record_type: 'BOGUS', content: 'x' }, { record_type: expect.stringMatching(/must be one of/) }],
    [{ record_type: 'SOA', content: 'x' }, { record_type: expect.stringMatching(/must be one of/) }],
    [{ content: 'x' }, { record_type: 'is required' }],
    [{ record_type: 'A' }, { content: 'is required' }],
    [{ name: 'a..b', record_type: 'A', content: '192.0.2.1' }, { name: expect.stringMatching(/empty labels/) }],
    [{ name: 'x.other.org.', record_type: 'A', content: '192.0.2.1' }, { name: expect.stringMatching(/not inside the zone/) }],
    [{ name: '@', record_type: 'CNAME', content: 'a.example.net' }, { record_type: expect.stringMatching(/cannot stand at the zone apex/) }],
    [{ name: '@', record_type: 'NS', content: 'ns.example.net' }, { record_type: 'the NS set at the apex is managed by zonedeck' }],
    [{ name: 'x', record_type: 'A', content: '192.0.2.1', id: 4 }, { id: 'is read-only' }],
    [{ name: 'x', record_type: 'A', content: '192.0.2.1', note: 'hi' }, { note: 'is not a known field' }],
  ])('rejects %j with 400 naming the field, and changes nothing', async (body, fields) => {
    const before = await serial();
    const res = await add(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual(fields);
    expect(await serial()).toBe(before);
    expect(await list()).toHaveLength(2);
  });

  it('enforces CNAME exclusivity both ways with 409', async () => {
    await add({ name: 'www', record_type: 'A', content: '192.0.2.1' });
    const cname = await add({ name: 'www', record_type: 'CNAME', content: 'target.example.net' });
    expect(cname.status).toBe(409);
    expect((await cname.json()).error.fields.record_type).toMatch(/CNAME must be the only record/);
    await add({ name: 'alias', record_type: 'CNAME', content: 'target.example.net' });
    const beside = await add({ name: 'alias', record_type: 'TXT', content: 'hello' });
    expect(beside.status).toBe(409);
    expect((await beside.json()).error.fields.name).toMatch(/has a CNAME record/);
    const second = await add({ name: 'alias', record_type: 'CNAME', content: 'other.example.net' });
    expect(second.status).toBe(409);
  });

  it('rejects a duplicate after canonicalization with 409', async () => {
    await add({ name: 'v6', record_type: 'AAAA', content: '2001:db8::1' });
    const dup = await add({ name: 'V6', record_type: 'AAAA', content: '2001:0DB8:0000::0001' });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error).toMatchObject({ code: 'conflict', fields: { content: expect.stringMatching(/identical AAAA record/) } });
  });

  it('keeps one TTL per RRset (RFC 2181 §5.2)', async () => {
    await add({ name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' });
    const inherited = await (await add({ name: 'www', record_type: 'A', content: '192.0.2.2' })).json();
    expect(inherited.ttl).toBe('300');
    await add({ name: 'www', record_type: 'A', content: '192.0.2.3', ttl: '900' });
    expect((await list('?name=www')).map((r: { ttl: string }) => r.ttl)).toEqual(['900', '900', '900']);
  });

  it('answers 404 for a zone the user does not have', async () => {
    expect((await t.request('POST', '/api/v1/domains/nope.example/records', { body: { record_type: 'A', content: '192.0.2.1' } })).status).toBe(404);
  });
});

describe('list, get, update and delete records', () => {
  it('filters by name and type, paginates, and gets one', async () => {
    await add({ name: 'www', record_type: 'A', content: '192.0.2.1' });
    await add({ name: 'www', record_type: 'AAAA', content: '2001:db8::1' });
    const mail = await (await add({ name: 'mail', record_type: 'A', content: '192.0.2.2' })).json();
    expect((await list('?name=www')).map((r: { record_type: string }) => r.record_type)).toEqual(['A', 'AAAA']);
    expect((await list('?record_type=a')).map((r: { name: string }) => r.name)).toEqual(['mail', 'www']);
    expect(await list('?name=@&record_type=NS')).toHaveLength(2);
    const page = await t.request('GET', `${base}?per_page=2&page=2`);
    expect(page.headers.get('x-total-count')).toBe('5');
    expect(await page.json()).toHaveLength(2);
    expect(await (await t.request('GET', `${base}/${mail.id}`)).json()).toEqual(mail);
    expect((await t.request('GET', `${base}/999999`)).status).toBe(404);
    expect((await t.request('GET', `${base}/abc`)).status).toBe(404);
  });

  it('lists every record exactly as it was stored, by name, type and id, whatever the filter', async () => {
    // Contents that a JSON or SQL round trip could bend: quotes, backslashes, \DDD escapes, non-ASCII, long text.
    const txts = ['"say \\"hi\\""', '"back\\\\slash" "two"', '"tab\\009here"', '"ünïcødé ✓ 𝄞"', `"${'x'.repeat(255)}" "${'y'.repeat(200)}"`];
    const made: { id: number; name: string; record_type: string; content: string; ttl: string; fqdn: string }[] = [];
    for (const content of txts) made.push(await (await add({ name: 'b.sub', record_type: 'TXT', content, ttl: '120' })).json());
    made.push(await (await add({ name: 'a.sub', record_type: 'A', content: '192.0.2.7', ttl: '2147483647' })).json());
    made.push(await (await add({ name: 'sub', record_type: 'MX', content: '10 mail.example.com' })).json());
    made.push(await (await add({ name: 'sub', record_type: 'A', content: '192.0.2.8' })).json());
    const order = (rows: typeof made) => [...rows].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.record_type < y.record_type ? -1 : x.record_type > y.record_type ? 1 : x.id - y.id));
    const all = await list('?per_page=500');
    expect(all.filter((r: { name: string }) => r.name.endsWith('sub'))).toEqual(order(made));
    expect(await list('?name=b.sub&record_type=TXT')).toEqual(order(made.filter((r) => r.name === 'b.sub')));
    expect(await list('?name=sub')).toEqual(order(made.filter((r) => r.name === 'sub')));
    // At a place below the apex: names relative to it, the place itself as @.
    const below = await (await t.request('GET', '/api/v1/domains/sub.example.com/records?per_page=500')).json();
    expect(below.map((r: { name: string; content: string }) => [r.name, r.content])).toEqual(order(made).map((r) => [r.name === 'sub' ? '@' : r.name.slice(0, -'.sub'.length), r.content]));
    const belowA = await (await t.request('GET', '/api/v1/domains/sub.example.com/records?record_type=A')).json();
    expect(belowA.map((r: { fqdn: string }) => r.fqdn)).toEqual(['a.sub.example.com', 'sub.example.com']);
    // A full page of a filtered list counts what the filter selects.
    const total = async (url: string) => (await t.request('GET', url)).headers.get('x-total-count');
    expect(await total(`${base}?name=b.sub&record_type=TXT&per_page=2`)).toBe('5');
    expect(await total('/api/v1/domains/sub.example.com/records?per_page=2&page=2')).toBe(String(made.length));
    expect(await total('/api/v1/domains/sub.example.com/records?record_type=A&per_page=1')).toBe('2');
    // Pages of 3 put together are the whole list, in the same order.
    const pages = [];
    for (let p = 1; p <= Math.ceil(all.length / 3); p++) pages.push(...(await list(`?per_page=3&page=${p}`)));
    expect(pages).toEqual(all);
  });

  it('updates fields partially with the same rules, and a ttl moves the whole RRset', async () => {
    const a = await (await add({ name: 'www', record_type: 'A', content: '192.0.2.1' })).json();
    await add({ name: 'www', record_type: 'A', content: '192.0.2.2' });
    const before = await serial();
    const res = await t.request('PUT', `${base}/${a.id}`, { body: { content: '192.0.2.10', ttl: '120' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: a.id, content: '192.0.2.10', ttl: '120' });
    expect((await list('?name=www')).map((r: { ttl: string }) => r.ttl)).toEqual(['120', '120']);
    expect(await serial()).toBeGreaterThan(before);
    const bad = await t.request('PUT', `${base}/${a.id}`, { body: { content: 'not-an-ip' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields.content).toMatch(/IPv4/);
    const dup = await t.request('PUT', `${base}/${a.id}`, { body: { content: '192.0.2.2' } });
    expect(dup.status).toBe(409);
  });

  it('deletes a record and bumps the serial', async () => {
    const a = await (await add({ name: 'www', record_type: 'A', content: '192.0.2.1' })).json();
    const before = await serial();
    const res = await t.request('DELETE', `${base}/${a.id}`);
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe(a.id);
    expect((await t.request('GET', `${base}/${a.id}`)).status).toBe(404);
    expect(await serial()).toBeGreaterThan(before);
  });

  it('protects the managed apex NS set with 403', async () => {
    const [ns] = await list('?record_type=NS');
    expect((await t.request('DELETE', `${base}/${ns.id}`)).status).toBe(403);
    const put = await t.request('PUT', `${base}/${ns.id}`, { body: { content: 'evil.example.net' } });
    expect(put.status).toBe(403);
    expect((await put.json()).error.code).toBe('forbidden');
  });
});

describe('records per zone', () => {
  it('refuses a record past MAX_RECORDS_PER_ZONE with 403, and counts deletions back', async () => {
    const small = await createTestApp({ MAX_RECORDS_PER_ZONE: '4' });
    try {
      await small.user('carol');
      await small.request('POST', '/api/v1/domains', { body: { name: 'small.example' } });
      const add = (name: string) => small.request('POST', '/api/v1/domains/small.example/records', { body: { name, record_type: 'A', content: '192.0.2.1' } });
      expect((await add('a')).status).toBe(200);
      const b = await (await add('b')).json();
      const over = await add('c');
      expect(over.status).toBe(403);
      expect((await over.json()).error.message).toMatch(/already holds 4 records; 4 is the most/);
      await small.request('DELETE', `/api/v1/domains/small.example/records/${b.id}`);
      expect((await add('c')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('refuses a PATCH that would grow the zone past the limit as a whole, and takes one that keeps its size', async () => {
    const small = await createTestApp({ MAX_RECORDS_PER_ZONE: '5' });
    try {
      await small.user('carol');
      await small.request('POST', '/api/v1/domains', { body: { name: 'small.example' } });
      const patch = (rrsets: unknown[]) => small.request('PATCH', '/api/v1/domains/small.example/rrsets', { body: { rrsets } });
      const list = async () => (await (await small.request('GET', '/api/v1/domains/small.example/records')).json()).map((r: { name: string; content: string }) => `${r.name} ${r.content}`);
      expect((await patch([{ name: 'a', record_type: 'TXT', changetype: 'REPLACE', records: ['1', '2'] }])).status).toBe(200);
      const before = await list();
      const serial = (await (await small.request('GET', '/api/v1/domains/small.example')).json()).serial_number;
      // 2 NS + 2 TXT now; two more would make 6.
      const over = await patch([{ name: 'b', record_type: 'TXT', changetype: 'REPLACE', records: ['3', '4'] }]);
      expect(over.status).toBe(403);
      expect((await over.json()).error.message).toMatch(/would hold 6 records; 5 is the most/);
      expect(await list()).toEqual(before);
      expect((await (await small.request('GET', '/api/v1/domains/small.example')).json()).serial_number).toBe(serial);
      // Replacing two records with two others keeps the size: allowed at the limit's edge too.
      expect(
        (
          await patch([
            { name: 'a', record_type: 'TXT', changetype: 'DELETE' },
            { name: 'b', record_type: 'TXT', changetype: 'REPLACE', records: ['3', '4'] },
          ])
        ).status,
      ).toBe(200);
      expect(await list()).toEqual(expect.arrayContaining(['b 3', 'b 4']));
    } finally {
      await small.close();
    }
  });
});
