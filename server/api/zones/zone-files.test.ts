/**
 * Zones in and out as master files, on SQLite and PostgreSQL: the export
 * passes named-checkzone and re-imports as a no-op; imports replace or merge as one change
 * set; every error names its line and applies nothing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../core/record-types';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ BULK_BODY_LIMIT_BYTES: '200000' });
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
});
afterEach(() => t.close());

const Z = '/api/v1/domains/example.com';
const upload = (text: string, query = '', type = 'text/dns') => t.request('POST', `${Z}/zone${query}`, { raw: text, headers: { 'content-type': type } });
const records = async (zone = 'example.com') =>
  ((await (await t.request('GET', `/api/v1/domains/${zone}/records?per_page=500`)).json()) as { name: string; record_type: string; content: string; ttl: string }[])
    .map((r) => `${r.name} ${r.ttl} ${r.record_type} ${r.content}`)
    .sort();
const serial = async () => ((await (await t.request('GET', Z)).json()) as { serial_number: number }).serial_number;

/** One record of every type of the registry, where each may stand. */
async function everyType(): Promise<void> {
  const rrsets = RECORD_TYPES.filter((type) => type.type !== 'NS' && type.type !== 'DS').map((type) => ({
    name: `t-${type.type.toLowerCase()}`,
    record_type: type.type,
    changetype: 'REPLACE',
    records: [type.example],
  }));
  rrsets.push({ name: 'child', record_type: 'NS', changetype: 'REPLACE', records: ['ns1.child.example.net'] });
  rrsets.push({ name: 'child', record_type: 'DS', changetype: 'REPLACE', records: [RECORD_TYPES.find((x) => x.type === 'DS')!.example] });
  const res = await t.request('PATCH', `${Z}/rrsets`, { body: { rrsets } });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('GET /domains/:name/zone', () => {
  it('is a master file of every record that named-checkzone accepts, and re-imports as a no-op', async () => {
    await everyType();
    const res = await t.request('GET', `${Z}/zone`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/dns/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="example.com.zone"');
    const text = await res.text();
    expect(text).toMatch(/^\$ORIGIN example\.com\.\n\$TTL 3600\n@\s+3600\s+IN\s+SOA\s+ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. \d+ 10800 3600 1209600 3600\n/);
    const file = path.join(t.dir, 'example.com.zone');
    fs.writeFileSync(file, text);
    const check = execFileSync('named-checkzone', ['-i', 'local', 'example.com', file], { encoding: 'utf8' });
    expect(check).toMatch(/loaded serial \d+\nOK/);
    for (const type of RECORD_TYPES) expect(text).toMatch(new RegExp(`\\sIN\\s${type.type}\\s`));

    const before = await records();
    const s = await serial();
    const again = await upload(text);
    expect(again.status).toBe(200);
    expect((await again.json()).change).toMatchObject({ id: null, added: [], removed: [] });
    expect(await records()).toEqual(before);
    expect(await serial()).toBe(s);
  });

  it("is 404 for another user's zone", async () => {
    const bob = await t.user('bob');
    expect((await t.request('GET', `${Z}/zone`, { token: bob })).status).toBe(404);
  });
});

const BIND_STYLE = `; exported from BIND
$ORIGIN example.com.
$TTL 1h
@   IN  SOA ns.old-provider.net. admin.example.com. (
        2019010101 ; serial, ignored
        7200       ; refresh
        900        ; retry
        1209600    ; expire
        300 )      ; minimum
    IN  NS  ns.old-provider.net.
    IN  MX  10 mail
www 300 IN  A   192.0.2.1
        IN  A   192.0.2.2
    IN 300 AAAA 2001:DB8::1
mail    A   192.0.2.25
txt     TXT "v=spf1 " "include:_spf.example.net -all"
_sip._tcp SRV 10 5 5060 sip.example.com.
$ORIGIN dev.example.com.
api CNAME www.example.com.
`;

describe('POST /domains/:name/zone', () => {
  it('replaces the records with the file, as one change set from source import', async () => {
    await t.request('POST', `${Z}/records`, { body: { name: 'gone', record_type: 'A', content: '192.0.2.99' } });
    const res = await upload(BIND_STYLE);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body.change).toMatchObject({ id: expect.any(Number), source: 'import', removed: [{ name: 'gone' }] });
    expect(body.change.settings).toMatchObject({ refresh_interval: [10800, 7200], retry_interval: [3600, 900], minimum_ttl: [3600, 300] });
    expect(body.ignored).toEqual([expect.objectContaining({ line: 10, record_type: 'NS' })]);
    expect(await records()).toEqual(
      [
        '@ 3600 NS ns1.zonedeck.test',
        '@ 3600 NS ns2.zonedeck.test',
        '@ 3600 MX 10 mail.example.com',
        'www 300 A 192.0.2.1',
        'www 300 A 192.0.2.2',
        'www 300 AAAA 2001:db8::1',
        'mail 3600 A 192.0.2.25',
        'txt 3600 TXT "v=spf1 " "include:_spf.example.net -all"',
        '_sip._tcp 3600 SRV 10 5 5060 sip.example.com',
        'api.dev 3600 CNAME www.example.com',
      ].sort(),
    );
    expect(await serial()).toBe(body.change.serial_after);
    expect(body.change.serial_after).not.toBe(2019010101);
  });

  it('adds to the records with ?mode=merge, and previews with ?dry_run=true', async () => {
    await t.request('POST', `${Z}/records`, { body: { name: 'kept', record_type: 'A', content: '192.0.2.99' } });
    const s = await serial();
    const preview = await (await upload('www 300 IN A 192.0.2.1\n', '?mode=merge&dry_run=true')).json();
    expect(preview.change).toMatchObject({ id: null, added: [{ name: 'www', content: '192.0.2.1' }], removed: [] });
    expect(await serial()).toBe(s);
    expect((await upload('www 300 IN A 192.0.2.1\n', '?mode=merge', 'text/plain')).status).toBe(200);
    expect(await records()).toEqual(expect.arrayContaining(['kept 3600 A 192.0.2.99', 'www 300 A 192.0.2.1']));
  });

  it('answers every error with its line and applies nothing', async () => {
    await t.request('POST', `${Z}/records`, { body: { name: 'kept', record_type: 'A', content: '192.0.2.99' } });
    const before = await records();
    const s = await serial();
    const bad = await upload(['$TTL 300', 'a IN A 300.1.1.1', 'b IN BOGUS x', '$INCLUDE other.zone', 'c IN A 192.0.2.1', 'c IN CNAME www.example.net.'].join('\n'));
    expect(bad.status).toBe(400);
    const { fields } = (await bad.json()).error;
    expect(Object.keys(fields).sort()).toEqual(['line 2', 'line 3', 'line 4']);
    expect(fields['line 4']).toMatch(/\$INCLUDE/);
    const cname = await upload('c IN A 192.0.2.1\nc IN CNAME www.example.net.\n');
    expect(cname.status).toBe(400);
    expect(Object.keys((await cname.json()).error.fields)).toEqual([expect.stringMatching(/^line [12]$/)]);
    const soa = await upload('@ IN SOA a. b. 1 60 60 60 60\n');
    expect((await soa.json()).error.fields['line 1']).toMatch(/refresh/);
    expect(await records()).toEqual(before);
    expect(await serial()).toBe(s);
  });

  it('refuses a body past BULK_BODY_LIMIT_BYTES with 413, and a non-UTF-8 file with 400', async () => {
    const big = `$TTL 300\n${Array.from({ length: 12000 }, (_, i) => `h${i} IN A 192.0.2.1`).join('\n')}\n`;
    expect((await upload(big)).status).toBe(413);
    const latin1 = await t.request('POST', `${Z}/zone`, { raw: new Uint8Array([0x61, 0x20, 0x54, 0x58, 0x54, 0x20, 0xe9, 0x0a]), headers: { 'content-type': 'text/dns' } });
    expect(latin1.status).toBe(400);
  });
});

describe('POST /domains with zone_file', () => {
  it('creates the zone from the file in one step', async () => {
    const res = await t.request('POST', '/api/v1/domains', { body: { name: 'imported.example', zone_file: '$TTL 600\n@ IN SOA x. y. 1 7200 900 1209600 600\nwww\tIN A 192.0.2.7\n' } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'imported.example', refresh_interval: 7200, minimum_ttl: 600 });
    expect(await records('imported.example')).toContain('www 600 A 192.0.2.7');
    const history = await (await t.request('GET', '/api/v1/domains/imported.example/changes')).json();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ serial_before: 0, added: expect.arrayContaining([expect.objectContaining({ name: 'www' })]) });
    const bad = await t.request('POST', '/api/v1/domains', { body: { name: 'broken.example', zone_file: 'www IN A nope\n' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('line 1');
    expect((await t.request('GET', '/api/v1/domains/broken.example')).status).toBe(404);
  });
});
