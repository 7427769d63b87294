/**
 * `GET /servers/localhost/search-data` as PowerDNS answers it (its regression suite's
 * test_search_rr_*): zones, records and comments by name or content with `*` and `?`, in any case,
 * `max` of each kind, `object_type`; only the user's zones, and of them only what the token's
 * scope admits; a big zone searched without loading it whole, a hostile pattern answered at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

const SEARCH = '/api/v1/servers/localhost/search-data';

let h: PdnsHarness;
let userId = 0;
const rs = (name: string, type: string, contents: string[], comments?: Array<{ content: string; account: string }>) => ({
  name,
  type,
  ttl: 300,
  changetype: 'REPLACE',
  records: contents.map((content) => ({ content, disabled: false })),
  ...(comments ? { comments } : {}),
});
const search = async (query: string, key?: string) => h.json('GET', `${SEARCH}?${query}`, undefined, key ? { key } : undefined);
/** The results in a short form: `kind name type content`. */
const brief = (list: Array<Record<string, unknown>>) => list.map((o) => [o.object_type, o.name, o.type, o.content].filter((v) => v !== undefined).join(' '));

beforeAll(async () => {
  h = await pdnsHarness();
  userId = (await h.t.services.store.users.byUsername('alice'))!.id;
  const zone = async (name: string, rrsets: unknown[], key?: string) => {
    expect((await h.json('POST', ZONES, { name, kind: 'Native' }, { key })).status).toBe(201);
    if (rrsets.length) expect((await h.json('PATCH', `${ZONES}/${name}`, { rrsets }, { key })).status).toBe(204);
  };
  await zone('alpha.example.', [
    rs('www.alpha.example.', 'A', ['192.0.2.1']),
    rs('mail.alpha.example.', 'MX', ['10 mx.provider.example.']),
    rs('app.alpha.example.', 'CNAME', ['lb.hosting.example.'], [{ content: 'blah: the load balancer', account: 'ops' }]),
    rs('_acme-challenge.alpha.example.', 'TXT', ['"token-one"']),
  ]);
  await zone('beta.example.', [rs('www.beta.example.', 'AAAA', ['2001:db8::1']), rs('_acme-challenge.beta.example.', 'TXT', ['"token-two"'])]);
  const bob = await h.t.user('bob');
  await zone('bobs-alpha.example.', [rs('www.bobs-alpha.example.', 'A', ['192.0.2.1'], [{ content: 'blah from bob', account: 'bob' }])], bob);
});
afterAll(() => h.t.close());

describe('what a search finds', () => {
  it('the zone name finds the zone, its SOA and its NS set, as PowerDNS answers (test_search_rr_exact_zone)', async () => {
    const soa = (await h.json('GET', `${ZONES}/alpha.example.?rrset_name=alpha.example.&rrset_type=SOA`)).body.rrsets[0];
    const res = await search('q=alpha.example');
    expect(res.status).toBe(200);
    const where = { zone_id: 'alpha.example.', zone: 'alpha.example.' };
    expect(res.body).toEqual([
      { object_type: 'zone', name: 'alpha.example.', zone_id: 'alpha.example.' },
      { object_type: 'record', name: 'alpha.example.', type: 'SOA', ttl: soa.ttl, disabled: false, content: soa.records[0].content, ...where },
      { object_type: 'record', name: 'alpha.example.', type: 'NS', ttl: 3600, disabled: false, content: 'ns1.zonedeck.test.', ...where },
      { object_type: 'record', name: 'alpha.example.', type: 'NS', ttl: 3600, disabled: false, content: 'ns2.zonedeck.test.', ...where },
    ]);
    // object_type narrows it (test_search_rr_exact_zone_filter_type_*); the trailing dot finds the same.
    expect(brief((await search('q=alpha.example.&object_type=zone')).body)).toEqual(['zone alpha.example.']);
    expect(brief((await search('q=alpha.example&object_type=record')).body)).toHaveLength(3);
  });

  it('`*` and `?` are wildcards, any case; names match with or without the trailing dot', async () => {
    expect(brief((await search('q=*WWW*&object_type=record')).body)).toEqual(['record www.alpha.example. A 192.0.2.1', 'record www.beta.example. AAAA 2001:db8::1']);
    expect(brief((await search('q=?ww.alpha.example.')).body)).toEqual(['record www.alpha.example. A 192.0.2.1']);
    expect(brief((await search('q=*.example&object_type=zone')).body)).toEqual(['zone alpha.example.', 'zone beta.example.']);
    // Without a wildcard the whole name must match.
    expect((await search('q=alpha')).body).toEqual([]);
  });

  it('content is matched as PowerDNS prints it and as it stores it (names without the trailing dot)', async () => {
    expect(brief((await search('q=192.0.2.1')).body)).toEqual(['record www.alpha.example. A 192.0.2.1']);
    expect(brief((await search('q=lb.hosting.example')).body)).toEqual(['record app.alpha.example. CNAME lb.hosting.example.']);
    expect(brief((await search('q=10 mx.provider.*')).body)).toEqual(['record mail.alpha.example. MX 10 mx.provider.example.']);
    expect(brief((await search('q="token-*"')).body)).toEqual(['record _acme-challenge.alpha.example. TXT "token-one"', 'record _acme-challenge.beta.example. TXT "token-two"']);
  });

  it('comments are found by their text (test_search_rr_comment), and only the user’s', async () => {
    const res = await search('q=blah*');
    expect(res.body).toEqual([{ object_type: 'comment', name: 'app.alpha.example.', type: 'CNAME', content: 'blah: the load balancer', zone_id: 'alpha.example.', zone: 'alpha.example.' }]);
    expect((await search('q=blah*&object_type=record')).body).toEqual([]);
  });

  it('max bounds each kind (100 unless given); a larger max than 10,000 is read as 10,000', async () => {
    const many = Array.from({ length: 120 }, (_, i) => rs(`host-${i}.beta.example.`, 'A', [`198.51.100.${i}`]));
    expect((await h.json('PATCH', `${ZONES}/beta.example.`, { rrsets: many })).status).toBe(204);
    expect((await search('q=host-*')).body).toHaveLength(100);
    expect((await search('q=host-*&max=7')).body).toHaveLength(7);
    expect((await search('q=*&max=1')).body.map((o: { object_type: string }) => o.object_type)).toEqual(['zone', 'record', 'comment']);
    const big = await search('q=host-*&max=99999999');
    expect(big.status).toBe(200);
    expect(big.body).toHaveLength(120);
  });
});

describe('only what the token may see', () => {
  it("another user's zones, records and comments never appear, whatever the pattern", async () => {
    const all = brief((await search('q=*&max=10000')).body).join('\n');
    expect(all).not.toMatch(/bobs-alpha|from bob/);
    expect(brief((await search('q=*bobs*')).body)).toEqual([]);
  });

  it('a token scoped to a zone finds nothing of the other zones of its user', async () => {
    const { token } = await h.t.services.accounts.createToken(userId, 'alpha only', null, { zones: ['alpha.example'] });
    const found = (await search('q=*&max=10000', token)).body as Array<{ zone_id: string }>;
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((o) => o.zone_id))).toEqual(new Set(['alpha.example.']));
    expect((await search('q=*beta*', token)).body).toEqual([]);
  });

  it('a token scoped to names and types finds only those records (zones still by name)', async () => {
    const { token } = await h.t.services.accounts.createToken(userId, 'acme', null, { names: ['_acme-challenge'], types: ['TXT'] });
    expect(brief((await search('q=*&object_type=record', token)).body)).toEqual(['record _acme-challenge.alpha.example. TXT "token-one"', 'record _acme-challenge.beta.example. TXT "token-two"']);
    expect((await search('q=blah*', token)).body).toEqual([]);
    expect(brief((await search('q=*&object_type=zone', token)).body)).toEqual(['zone alpha.example.', 'zone beta.example.']);
  });

  it('needs a valid key', async () => {
    expect((await h.json('GET', `${SEARCH}?q=*`, undefined, { key: null })).status).toBe(401);
  });
});

describe('bad parameters are 422 naming the parameter', () => {
  it.each([
    ['', "Query q can't be blank"],
    ['q=', "Query q can't be blank"],
    [`q=${'a'.repeat(256)}`, 'q: must be at most 255 characters'],
    ['q=*&max=0', 'max: Maximum entries must be larger than 0'],
    ['q=*&max=ten', 'max: must be a whole number, e.g. 100'],
    ['q=*&max=-1', 'max: must be a whole number, e.g. 100'],
    ['q=*&object_type=zones', 'object_type must be one of the following options: all, zone, record, comment'],
  ])('?%s', async (query, error) => {
    expect(await search(query)).toEqual({ status: 422, body: { error } });
  });
});

describe('large and hostile', () => {
  it('finds the one match in a zone of 10,000 records, and a pathological pattern over long TXT answers at once', async () => {
    const zone = 'large.example.';
    expect((await h.json('POST', ZONES, { name: zone, kind: 'Native' })).status).toBe(201);
    const rrsets = Array.from({ length: 10_000 }, (_, i) => rs(`n${i}.${zone}`, 'TXT', [`"${'a'.repeat(200)}"`]));
    rrsets.push(rs(`needle.${zone}`, 'A', ['203.0.113.9']));
    expect((await h.json('PATCH', `${ZONES}/${zone}`, { rrsets })).status).toBe(204);
    expect(brief((await search('q=*needle*')).body)).toEqual(['record needle.large.example. A 203.0.113.9']);
    // Each star-separated part is found in one pass (server/pdns/glob.ts). A backtracking matcher
    // would try some 10^18 ways over each of the 10,000 texts of 200 octets: it would never answer,
    // and the test fails on its timeout, with no clock read here.
    expect((await search(`q=${encodeURIComponent('*a*a*a*a*a*a*a*a*a*a*a*a*b*')}`)).body).toEqual([]);
  }, 120_000);
});
