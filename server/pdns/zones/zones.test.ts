/**
 * Zones through the PowerDNS API: ids in every form clients send, creation with records or
 * a zone file, metadata, NOTIFY, export, and PowerDNS's status codes for every refusal,
 * never a 5xx. Another user's zone is 404 exactly like a missing one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZoneChange } from '../../services/changes/events';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

let h: PdnsHarness;
let bob = '';
beforeAll(async () => {
  h = await pdnsHarness({ BODY_LIMIT_BYTES: '2048' });
  bob = await h.t.user('bob');
  expect((await h.json('POST', ZONES, { name: 'example.com.', kind: 'Native' })).status).toBe(201);
  expect((await h.json('POST', ZONES, { name: 'bob.example.', kind: 'Master' }, { key: bob })).status).toBe(201);
});
afterAll(() => h.t.close());

const history = async (zone: string) => {
  const res = await h.t.request('GET', `/api/v1/domains/${zone}/changes`);
  return (await res.json()) as Array<{ source: string; actor: { credential: string }; comment: string; added: Array<{ name: string; record_type: string; content: string; ttl: string }> }>;
};

describe('authentication', () => {
  it('401 with PowerDNS body without a key or with a wrong one; zonedeck Bearer auth is not PowerDNS auth', async () => {
    for (const [key, path] of [
      [null, ZONES],
      ['zd_wrong', ZONES],
      [null, '/api'],
      [null, '/api/v1/servers'],
      ['zd_wrong', `${ZONES}/example.com./cryptokeys`],
    ] as const) {
      const res = await h.call('GET', path, undefined, { key });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^X-API-Key/);
      expect(await res.json()).toEqual({ error: 'Unauthorized' });
    }
    expect((await h.t.request('GET', ZONES)).status).toBe(401);
    // …and zonedeck's own API keeps its auth and error body beside it.
    const own = await h.t.request('GET', '/api/v1/domains', { token: null, headers: { 'x-api-key': h.token } });
    expect(own.status).toBe(401);
    expect((await own.json()).error.code).toBe('unauthorized');
    expect((await h.t.request('GET', '/api/v1/domains')).status).toBe(200);
  });
});

describe('zone ids', () => {
  it.each(['example.com.', 'example.com', 'example.com%2E', 'example=2Ecom=2E', 'EXAMPLE.com.'])('%s names example.com', async (id) => {
    const res = await h.json('GET', `${ZONES}/${id}?rrsets=false`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'example.com.', name: 'example.com.', url: `${ZONES}/example.com.` });
    expect(res.body).not.toHaveProperty('rrsets');
  });

  it('?zone= finds one zone, or none', async () => {
    expect((await h.json('GET', `${ZONES}?zone=example.com.`)).body.map((z: { name: string }) => z.name)).toEqual(['example.com.']);
    expect((await h.json('GET', `${ZONES}?zone=bob.example.`)).body).toEqual([]);
  });

  it('another user’s zone is 404 like a missing one, for every method', async () => {
    for (const [method, path, body] of [
      ['GET', `${ZONES}/bob.example.`],
      ['PATCH', `${ZONES}/bob.example.`, { rrsets: [] }],
      ['PUT', `${ZONES}/bob.example.`, {}],
      ['DELETE', `${ZONES}/bob.example.`],
      ['PUT', `${ZONES}/bob.example./notify`],
      ['GET', `${ZONES}/bob.example./export`],
      ['GET', `${ZONES}/bob.example./cryptokeys`],
      ['POST', `${ZONES}/bob.example./cryptokeys`, {}],
    ] as const) {
      const theirs = await h.json(method, path, body);
      const missing = await h.json(method, path.replace('bob.example.', 'nobody.example.'), body);
      expect([method, path, theirs]).toEqual([method, path, { status: 404, body: { error: "Could not find domain 'bob.example.'" } }]);
      expect(missing).toEqual({ status: 404, body: { error: "Could not find domain 'nobody.example.'" } });
    }
    expect((await h.json('GET', ZONES)).body.map((z: { name: string }) => z.name)).toEqual(['example.com.']);
    expect((await h.json('GET', `${ZONES}/bob.example.`, undefined, { key: bob })).status).toBe(200);
  });

  it('a bad =XX escape is 400, an unknown path 404, another server id 404', async () => {
    expect((await h.json('GET', `${ZONES}/example=ZZcom.`)).status).toBe(400);
    expect(await h.json('GET', '/api/v1/servers/localhost/config')).toEqual({ status: 404, body: { error: 'Not Found' } });
    expect((await h.json('GET', '/api/v1/servers/other/zones')).status).toBe(404);
  });
});

describe('reading zones as PowerDNS lists them', () => {
  it('?dnssec=false leaves out dnssec and edited_serial', async () => {
    const [zone] = (await h.json('GET', `${ZONES}?dnssec=false`)).body;
    expect(zone).not.toHaveProperty('dnssec');
    expect(zone).not.toHaveProperty('edited_serial');
    expect(zone).toMatchObject({ name: 'example.com.', serial: expect.any(Number), account: '', catalog: '' });
    expect((await h.json('GET', ZONES)).body[0]).toHaveProperty('dnssec', false);
  });

  it('an RRset’s records in order of content; record_count with the RRsets or when asked for', async () => {
    const rrsets = [{ name: 'order.example.com.', type: 'A', ttl: 60, changetype: 'REPLACE', records: [{ content: '4.3.2.1' }, { content: '127.0.0.1', disabled: true }] }];
    expect((await h.json('PATCH', `${ZONES}/example.com.`, { rrsets })).status).toBe(204);
    const one = await h.json('GET', `${ZONES}/example.com.?rrset_name=order.example.com.`);
    expect(one.body.rrsets[0].records).toEqual([
      { content: '127.0.0.1', disabled: true },
      { content: '4.3.2.1', disabled: false },
    ]);
    expect(one.body.record_count).toBe(2);
    const counted = await h.json('GET', `${ZONES}/example.com.?rrsets=false&record_count=true`);
    expect(counted.body).not.toHaveProperty('rrsets');
    expect(counted.body.record_count).toBe((await h.json('GET', `${ZONES}/example.com.`)).body.rrsets.reduce((n: number, s: { records: unknown[] }) => n + s.records.length, 0));
  });

  it('include_disabled=false leaves disabled records out of a lookup by name', async () => {
    const enabled = await h.json('GET', `${ZONES}/example.com.?rrset_name=order.example.com.&include_disabled=false`);
    expect(enabled.body.rrsets[0].records).toEqual([{ content: '4.3.2.1', disabled: false }]);
    expect((await h.json('GET', `${ZONES}/example.com.?rrset_name=order.example.com.&include_disabled=maybe`)).status).toBe(422);
  });
});

describe('creating zones', () => {
  it('409 for a zone that exists, whoever holds it', async () => {
    // PowerDNS answers a bare "Conflict"; zonedeck adds which.
    expect(await h.json('POST', ZONES, { name: 'example.com.', kind: 'Native' })).toEqual({ status: 409, body: { error: "Conflict: Domain 'example.com.' already exists" } });
    expect(await h.json('POST', ZONES, { name: 'bob.example', kind: 'Native' })).toEqual({ status: 409, body: { error: "Conflict: Domain 'bob.example.' already exists" } });
  });

  it.each([
    [{ kind: 'Native' }, /name/],
    [{ name: 'not a name.', kind: 'Native' }, /^name: /],
    [{ name: 'slave.example.', kind: 'Slave' }, /masters: a zone of kind Slave needs at least one master/],
    [{ name: 'native.example.', kind: 'Native', masters: ['192.0.2.1'] }, /masters: only a zone of kind Slave has masters/],
    [{ name: 'consumer.example.', kind: 'Consumer' }, /kind 'Consumer'/],
    [{ name: 'n3.example.', nsec3param: '1 0 0 -' }, /NSEC3/],
    [{ name: 'ttl.example.', rrsets: [{ name: 'ttl.example.', type: 'SOA', ttl: 60, records: [{ content: 'a. b. 1 10 3600 1209600 3600' }] }] }, /refresh_interval/],
    [{ name: 'x.example.', rrsets: 'no' }, /rrsets: must be an array/],
    [{ name: 'both.example.', rrsets: [{ name: 'a.both.example.', type: 'A', records: [{ content: '192.0.2.1' }] }], zone: 'a 60 IN A 192.0.2.1' }, /either rrsets or zone/],
  ])('422 for %j', async (body, message) => {
    const res = await h.json('POST', ZONES, body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
  });

  it('with rrsets: one change after the creation; SOA timers taken, apex NS and changetypes ignored', async () => {
    const res = await h.json('POST', ZONES, {
      name: 'made.example.',
      kind: 'master',
      rrsets: [
        { name: 'made.example.', type: 'SOA', ttl: 300, records: [{ content: 'ns.elsewhere.example. h.elsewhere.example. 7 7200 1800 604800 300', disabled: false }] },
        { name: 'made.example.', type: 'NS', ttl: 300, records: [{ content: 'ns1.elsewhere.example.', disabled: false }] },
        { name: 'www.made.example.', type: 'A', ttl: 60, changetype: 'REPLACE', records: [{ content: '192.0.2.10', disabled: false }] },
        { name: 'made.example.', type: 'MX', ttl: 60, records: [{ content: '10 mail.made.example.', disabled: false }] },
      ],
    });
    expect(res.status).toBe(201);
    const sets = Object.fromEntries(res.body.rrsets.map((s: { type: string; name: string; records: Array<{ content: string }> }) => [`${s.name} ${s.type}`, s.records.map((r) => r.content)]));
    expect(sets).toEqual({
      'made.example. SOA': [expect.stringMatching(/^ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. [0-9]+ 7200 1800 604800 300$/)],
      'made.example. NS': ['ns1.zonedeck.test.', 'ns2.zonedeck.test.'],
      'made.example. MX': ['10 mail.made.example.'],
      'www.made.example. A': ['192.0.2.10'],
    });
    const changes = await history('made.example');
    expect(changes.map((c) => c.source)).toEqual(['pdns', 'pdns']);
    expect(changes[0]!.added.map((r) => `${r.name} ${r.record_type} ${r.content}`).sort()).toEqual(['@ MX 10 mail.made.example', 'www A 192.0.2.10']);
  });

  it('with records that are refused: 422 naming them, and no zone is left', async () => {
    const res = await h.json('POST', ZONES, {
      name: 'refused.example.',
      kind: 'Native',
      rrsets: [
        { name: 'refused.example.', type: 'SOA', ttl: 300, records: [{ content: 'a. b. 1 10800 3600 1209600 3600' }] },
        { name: 'ok.refused.example.', type: 'A', ttl: 60, records: [{ content: '192.0.2.1' }] },
        { name: 'bad.refused.example.', type: 'A', ttl: 60, records: [{ content: '192.0.2.300' }] },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^RRset bad\.refused\.example\. IN A: rrsets\.2\.records\.0: A: /);
    expect((await h.json('GET', `${ZONES}/refused.example.`)).status).toBe(404);
    expect((await h.t.request('GET', '/api/v1/domains/refused.example')).status).toBe(404);
  });

  it('from a zone file (`zone`), and 422 naming the line of a bad one', async () => {
    const zone = '$TTL 300\n@ IN SOA ns. h. 1 7200 1800 604800 300\n@ IN NS ns.other.example.\nwww IN A 192.0.2.20\ntxt IN TXT "a b" "c"\n';
    const res = await h.json('POST', ZONES, { name: 'file.example.', kind: 'Native', zone });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.rrsets.map((s: { name: string; type: string; ttl: number }) => `${s.name} ${s.type} ${s.ttl}`)).toEqual([
      'file.example. SOA 300',
      'file.example. NS 3600',
      'txt.file.example. TXT 300',
      'www.file.example. A 300',
    ]);
    // The file's two character-strings stay two (RFC 6763 §6), as PowerDNS keeps them.
    expect(res.body.rrsets[2].records[0].content).toBe('"a b" "c"');
    const bad = await h.json('POST', ZONES, { name: 'badfile.example.', kind: 'Native', zone: 'www IN A 192.0.2.1\nwww IN MX nope\n' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^zone: line 2: /);
    expect((await h.json('GET', `${ZONES}/badfile.example.`)).status).toBe(404);
  });
});

describe('zone metadata, NOTIFY, export, deletion', () => {
  it('PUT takes what means something (dnssec), ignores the rest, refuses what zonedeck cannot be', async () => {
    const put = (body: unknown) => h.json('PUT', `${ZONES}/example.com.`, body);
    expect(await put({ kind: 'Native', soa_edit_api: 'INCEPTION-INCREMENT', api_rectify: true, account: 'ops' })).toEqual({ status: 204, body: null });
    expect((await put({ kind: 'Slave' })).status).toBe(422);
    expect((await put({ masters: ['192.0.2.1'] })).status).toBe(422);
    const soa = { name: 'example.com.', type: 'SOA', ttl: 3600, records: [{ content: 'ns1.zonedeck.test. hostmaster.zonedeck.test. 1 10800 3600 1209600 3600' }] };
    expect((await put({ rrsets: [soa, { name: 'example.com.', type: 'MX', records: [{ content: 'nope', disabled: false }] }] })).body.error).toMatch(/rrsets\.1\.records\.0/);
    // As PowerDNS: a zone replaced whole is given its SOA.
    expect((await put({ rrsets: [{ name: 'example.com.', type: 'MX', records: [{ content: '10 mx.example.com.' }] }] })).body.error).toBe('Must give SOA record for zone when replacing all RR sets');
    expect(await put({ dnssec: true })).toEqual({ status: 204, body: null });
    expect((await h.json('GET', `${ZONES}/example.com.?rrsets=false`)).body.dnssec).toBe(true);
    expect(await put({ dnssec: false })).toEqual({ status: 204, body: null });
    const changes = await history('example.com');
    expect(changes.slice(0, 2).map((c) => c.source)).toEqual(['pdns', 'pdns']);
  });

  it('PUT …/notify asks the DNS server to NOTIFY the secondaries', async () => {
    const events: ZoneChange[] = [];
    const stop = h.t.services.events.subscribe((e) => events.push(e));
    const res = await h.json('PUT', `${ZONES}/example.com./notify`);
    stop();
    expect(res).toEqual({ status: 200, body: { result: 'Notification queued' } });
    expect(events).toEqual([{ kind: 'zone-changed', domain: expect.objectContaining({ name: 'example.com' }), names: [], keys: false }]);
  });

  it('export: the zone file as text, or {"zone": …} to a client that asks for JSON', async () => {
    await h.call('PATCH', `${ZONES}/example.com.`, { rrsets: [{ name: 'www.example.com.', type: 'TXT', ttl: 60, changetype: 'REPLACE', records: [{ content: '"hello world"' }] }] });
    const res = await h.call('GET', `${ZONES}/example.com./export`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^\$ORIGIN example\.com\.\n/);
    expect(text).toContain('www\t60\tIN\tTXT\t"hello world"');
    const json = await h.call('GET', `${ZONES}/example.com./export`, undefined, { headers: { accept: 'application/json' } });
    expect(await json.json()).toEqual({ zone: text });
  });

  it('DELETE removes the zone: 204, then 404', async () => {
    expect((await h.json('POST', ZONES, { name: 'short.example.', kind: 'Native' })).status).toBe(201);
    expect(await h.json('DELETE', `${ZONES}/short.example.`)).toEqual({ status: 204, body: null });
    expect((await h.json('GET', `${ZONES}/short.example.`)).status).toBe(404);
    expect((await h.json('DELETE', `${ZONES}/short.example.`)).status).toBe(404);
  });
});

describe('bad bodies: 400, 413, 422, never a 5xx', () => {
  it.each([
    ['not JSON', '{', 400],
    ['an array', '[]', 422],
    ['rrsets not a list', '{"rrsets": {}}', 422],
    ['a record without content', '{"rrsets": [{"name": "a.example.com.", "type": "A", "changetype": "REPLACE", "records": [{}]}]}', 422],
    ['a ttl that is text', '{"rrsets": [{"name": "a.example.com.", "type": "A", "ttl": "x", "changetype": "REPLACE", "records": []}]}', 422],
    ['a control character', '{"rrsets": [{"name": "a\\u0001.example.com.", "type": "A", "changetype": "DELETE"}]}', 422],
    ['too large', JSON.stringify({ rrsets: [], pad: 'x'.repeat(40 * 1024 * 1024) }), 413],
  ])('%s', async (_what, raw, status) => {
    const res = await h.call('PATCH', `${ZONES}/example.com.`, undefined, { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(status);
    expect(typeof (await res.json()).error).toBe('string');
  });

  it('POST of a zone over the ordinary body limit is taken (whole zones are bulk writes)', async () => {
    const rrsets = Array.from({ length: 60 }, (_, i) => ({ name: `h${i}.big.example.`, type: 'A', ttl: 60, records: [{ content: `192.0.2.${i}` }] }));
    expect((await h.json('POST', ZONES, { name: 'big.example.', kind: 'Native', rrsets })).status).toBe(201);
  });
});
