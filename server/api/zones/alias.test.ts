/**
 * ALIAS through the API: at any name, one per name, nothing of A or AAAA beside
 * it, never at or below a delegation, refused without RESOLVER; in zone files as an RFC 3597 generic record that named-checkzone
 * accepts and that reads back (PowerDNS's `ALIAS` text too); CDS/CDNSKEY stay out of the registry.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
afterEach(() => t?.close());

const Z = '/api/v1/domains/example.com';
const add = (name: string, record_type: string, content: string) => t.request('POST', `${Z}/records`, { body: { name, record_type, content } });
const error = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: { fields: Record<string, string> } }).error });

async function app(env: Record<string, string> = { RESOLVER: '127.0.0.1:53' }) {
  t = await createTestApp(env);
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
}

describe('ALIAS records', () => {
  it('stand at the apex, one of them, canonical like any target name', async () => {
    await app();
    const res = await add('@', 'ALIAS', 'LB.Example.NET.');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: '@', record_type: 'ALIAS', content: 'lb.example.net', fqdn: 'example.com' });
    const second = await error(await add('@', 'ALIAS', 'other.example.net'));
    expect(second).toMatchObject({ status: 400, fields: { record_type: expect.stringMatching(/only one ALIAS/) } });
  });

  it('stand at any name, a wildcard too, one per name, beside data other than addresses', async () => {
    await app();
    for (const name of ['www', '*.apps', 'a.b']) expect((await add(name, 'ALIAS', 'lb.example.net')).status, name).toBe(200);
    expect((await add('www', 'TXT', 'v=site')).status).toBe(200);
    expect(await error(await add('www', 'A', '192.0.2.1'))).toMatchObject({ status: 400, fields: { record_type: expect.stringMatching(/www\.example\.com has an ALIAS record.*no A or AAAA/) } });
    expect(await error(await add('www', 'ALIAS', 'other.example.net'))).toMatchObject({ status: 400, fields: { record_type: expect.stringMatching(/only one ALIAS/) } });
    // A CNAME excludes every other record, an ALIAS included (RFC 1034 §3.6.2): a conflict, as beside any data.
    expect((await add('www', 'CNAME', 'other.example.net')).status).toBe(409);
  });

  it('are refused at a delegation, below one, and below a DNAME, naming the field', async () => {
    await app();
    expect((await add('sub', 'NS', 'ns1.elsewhere.example')).status).toBe(200);
    expect(await error(await add('sub', 'ALIAS', 'lb.example.net'))).toMatchObject({
      status: 400,
      fields: { record_type: expect.stringMatching(/ALIAS cannot stand beside the NS records of a delegation at sub\.example\.com/) },
    });
    expect(await error(await add('www.sub', 'ALIAS', 'lb.example.net'))).toMatchObject({
      status: 400,
      fields: { name: expect.stringMatching(/www\.sub\.example\.com is below the delegation at sub\.example\.com/) },
    });
    // Whichever comes second: a delegation above an ALIAS is refused too.
    expect((await add('www.team', 'ALIAS', 'lb.example.net')).status).toBe(200);
    expect(await error(await add('team', 'NS', 'ns1.elsewhere.example'))).toMatchObject({
      status: 400,
      fields: { name: expect.stringMatching(/www\.team\.example\.com is below the delegation at team\.example\.com/) },
    });
    expect((await add('old', 'DNAME', 'example.net')).status).toBe(200);
    expect(await error(await add('x.old', 'ALIAS', 'lb.example.net'))).toMatchObject({ status: 400, fields: { name: expect.stringMatching(/below the DNAME/) } });
  });

  it('exclude A and AAAA at the apex, whichever comes first', async () => {
    await app();
    expect((await add('@', 'A', '192.0.2.1')).status).toBe(200);
    const alias = await error(await add('@', 'ALIAS', 'lb.example.net'));
    expect(alias).toMatchObject({ status: 400, fields: { record_type: expect.stringMatching(/no A or AAAA record can stand beside it/) } });
    // Replacing the A by the ALIAS in one change set is fine; adding an AAAA then is not.
    const swap = await t.request('PATCH', `${Z}/rrsets`, {
      body: {
        rrsets: [
          { name: '@', record_type: 'A', changetype: 'DELETE' },
          { name: '@', record_type: 'ALIAS', changetype: 'REPLACE', records: ['lb.example.net'] },
        ],
      },
    });
    expect(swap.status).toBe(200);
    const aaaa = await error(await t.request('PATCH', `${Z}/rrsets`, { body: { rrsets: [{ name: '@', record_type: 'AAAA', changetype: 'ADD', records: ['2001:db8::1'] }] } }));
    expect(aaaa).toMatchObject({ status: 400, fields: { 'rrsets.0': expect.stringMatching(/has an ALIAS record/) } });
  });

  it('are refused while RESOLVER is not set, saying so', async () => {
    await app({});
    const res = await error(await add('@', 'ALIAS', 'lb.example.net'));
    expect(res).toMatchObject({ status: 400, fields: { record_type: expect.stringMatching(/set RESOLVER/) } });
  });

  it('go into a zone file as a generic record named-checkzone accepts, and come back from it', async () => {
    await app();
    expect((await add('@', 'ALIAS', 'lb.example.net')).status).toBe(200);
    expect((await add('www', 'A', '192.0.2.1')).status).toBe(200);
    const text = await (await t.request('GET', `${Z}/zone`)).text();
    expect(text).toMatch(/; ALIAS lb\.example\.net\. \(the A and AAAA here are this name's addresses/);
    expect(text).toMatch(/\n@\t3600\tIN\tTYPE65401\t\\# 16 026C62076578616D706C65036E657400\n/);
    const file = path.join(t.dir, 'example.com.zone');
    fs.writeFileSync(file, text);
    expect(execFileSync('named-checkzone', ['-i', 'local', 'example.com', file], { encoding: 'utf8' })).toMatch(/OK/);
    // The same file again changes nothing; PowerDNS's spelling is read too.
    const again = await t.request('POST', `${Z}/zone`, { raw: text, headers: { 'content-type': 'text/dns' } });
    expect((await again.json()).change).toMatchObject({ id: null });
    const pdns = await t.request('POST', `${Z}/zone`, { raw: '@ 300 IN ALIAS cdn.example.org.\nwww 300 IN A 192.0.2.1\n', headers: { 'content-type': 'text/dns' } });
    expect(pdns.status).toBe(200);
    const list = (await (await t.request('GET', `${Z}/records?record_type=ALIAS`)).json()) as { content: string }[];
    expect(list.map((r) => r.content)).toEqual(['cdn.example.org']);
  });
});

describe('CDS and CDNSKEY', () => {
  it('are the signer’s, not record types a user writes', async () => {
    await app();
    for (const type of ['CDS', 'CDNSKEY']) {
      const res = await error(await add('@', type, '0 0 0 00'));
      expect(res).toMatchObject({ status: 400, fields: { record_type: expect.stringMatching(/must be one of A, AAAA, .*ALIAS/) } });
    }
  });
});
