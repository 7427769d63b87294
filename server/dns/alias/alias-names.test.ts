/**
 * Against the built server: an ALIAS stands at any name, as PowerDNS has it
 * (external-dns with --prefer-alias writes one for every CNAME that leaves the zone). A and AAAA
 * there are the target's addresses from RESOLVER (a resolver double of the test's own), the
 * name's other types its own records, a wildcard ALIAS answers every name it covers, a signed
 * zone signs them online (delv validates), AXFR hands them to secondaries as plain A and AAAA,
 * internal targets and addresses stay out as at the apex, and the rules (one per name, no A or
 * AAAA beside it, never at or below a delegation) are a 400 naming the field.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

const Z = 'names.test';
/** What the resolver double knows: three CDN names (one with internal addresses too), nothing else (NXDOMAIN). */
const TARGETS: Record<string, Record<string, string[]>> = {
  'lb.cdn.example': { A: ['192.0.2.80', '192.0.2.81'], AAAA: ['2001:db8::80'] },
  'ingress.cdn.example': { A: ['198.51.100.4'] },
  'split.cdn.example': { A: ['10.1.2.3', '192.0.2.55'], AAAA: ['fd00::1'] },
};

let s: RunningServer;
let resolver: dgram.Socket;
let token: string;

const short = async (name: string, type: string) => (await s.dig('+short', name, type)).trim().split('\n').filter(Boolean).sort();
const add = (name: string, record_type: string, content: string) => s.api('POST', `/domains/${Z}/records`, { name, record_type, content });
const fields = async (res: Response) => ({ status: res.status, fields: ((await res.json()) as { error: { fields: Record<string, string> } }).error.fields });
const pdns = (method: string, body?: unknown) =>
  fetch(`${s.http}/api/v1/servers/localhost/zones/${Z}.`, { method, headers: { 'X-API-Key': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  const port = await freePort();
  resolver = dgram.createSocket('udp4');
  resolver.on('message', (msg, rinfo) => {
    const q = packet.decode(msg);
    const { name, type } = q.questions![0]!;
    const known = TARGETS[name.toLowerCase()];
    const reply = packet.encode({
      id: q.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (known ? 0 : 3),
      questions: q.questions,
      answers: (known?.[type] ?? []).map((data) => ({ name, type: type as 'A', ttl: 300, data })),
    });
    resolver.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => resolver.bind(port, '127.0.0.1', () => r()));
  s = await startServer({ RESOLVER: `127.0.0.1:${port}` });
  expect((await s.api('POST', '/domains', { name: Z })).status).toBe(201);
  token = ((await (await s.api('POST', '/tokens', { label: 'external-dns' })).json()) as { token: string }).token;
}, 60_000);

afterAll(async () => {
  resolver?.close();
  await s?.stop();
});

describe('an ALIAS below the apex', () => {
  it('answers A and AAAA at its name with the target’s addresses, and the name’s other types from its records', async () => {
    expect((await add('www', 'ALIAS', 'lb.cdn.example.')).status).toBe(200);
    expect((await add('www', 'TXT', 'v=site')).status).toBe(200);
    expect(await eventually(async () => (await short(`www.${Z}`, 'A')).length > 0)).toBe(true);
    expect(await short(`www.${Z}`, 'A')).toEqual(TARGETS['lb.cdn.example']!.A);
    expect(await short(`www.${Z}`, 'AAAA')).toEqual(TARGETS['lb.cdn.example']!.AAAA);
    expect(await short(`www.${Z}`, 'TXT')).toEqual(['"v=site"']);
    // Owned by www, with the target's TTL (under the record's own), and no ALIAS on the wire.
    expect(await s.dig('+noall', '+answer', `www.${Z}`, 'A')).toMatch(new RegExp(`^www\\.names\\.test\\.\\s+300\\s+IN\\s+A\\s+192\\.0\\.2\\.80$`, 'm'));
  });

  it('at a wildcard, answers every name the wildcard covers (RFC 4592)', async () => {
    expect((await add('*.apps', 'ALIAS', 'ingress.cdn.example.')).status).toBe(200);
    expect(await eventually(async () => (await short(`shop.apps.${Z}`, 'A')).length > 0)).toBe(true);
    expect(await short(`shop.apps.${Z}`, 'A')).toEqual(['198.51.100.4']);
    expect(await s.dig('+noall', '+answer', `shop.apps.${Z}`, 'AAAA')).toBe('');
  });

  it('keeps what only an internal resolver knows inside, as at the apex', async () => {
    expect(await fields(await add('intra', 'ALIAS', 'db.corp.internal.'))).toEqual({ status: 400, fields: { content: expect.stringMatching(/\.internal/) } });
    expect((await add('split', 'ALIAS', 'split.cdn.example.')).status).toBe(200);
    expect(await eventually(async () => (await short(`split.${Z}`, 'A')).length > 0)).toBe(true);
    expect(await short(`split.${Z}`, 'A')).toEqual(['192.0.2.55']);
    expect(await short(`split.${Z}`, 'AAAA')).toEqual([]);
  });

  it('is refused beside an A, at a delegation and below one: 400 naming the field', async () => {
    expect(await fields(await add('www', 'A', '192.0.2.1'))).toEqual({
      status: 400,
      fields: { record_type: expect.stringMatching(/www\.names\.test has an ALIAS record.*no A or AAAA record can stand beside it/) },
    });
    expect((await add('sub', 'NS', 'ns1.elsewhere.example.')).status).toBe(200);
    expect(await fields(await add('sub', 'ALIAS', 'lb.cdn.example.'))).toEqual({
      status: 400,
      fields: { record_type: expect.stringMatching(/ALIAS cannot stand beside the NS records of a delegation at sub\.names\.test/) },
    });
    expect(await fields(await add('www.sub', 'ALIAS', 'lb.cdn.example.'))).toEqual({
      status: 400,
      fields: { name: expect.stringMatching(/www\.sub\.names\.test is below the delegation at sub\.names\.test/) },
    });
  });

  it('is what external-dns --prefer-alias writes through the PowerDNS API: 204, and read back as written', async () => {
    const rrset = { name: `app.${Z}.`, type: 'ALIAS', ttl: 300, changetype: 'REPLACE', records: [{ content: 'lb.cdn.example.' }] };
    const res = await pdns('PATCH', { rrsets: [rrset] });
    expect(res.status, await res.clone().text()).toBe(204);
    const zone = (await (await pdns('GET')).json()) as { rrsets: { name: string; type: string; ttl: number; records: { content: string; disabled: boolean }[] }[] };
    const back = zone.rrsets.find((r) => r.name === `app.${Z}.` && r.type === 'ALIAS');
    expect(back).toMatchObject({ name: `app.${Z}.`, type: 'ALIAS', ttl: 300, records: [{ content: 'lb.cdn.example.', disabled: false }] });
    expect(await eventually(async () => (await short(`app.${Z}`, 'A')).length > 0)).toBe(true);
    expect(await short(`app.${Z}`, 'A')).toEqual(TARGETS['lb.cdn.example']!.A);
  });

  it('goes to secondaries in AXFR as the resolved A and AAAA at its name, never as the ALIAS', async () => {
    const axfr = await s.dig('+tcp', '+nocmd', '+nostats', Z, 'AXFR');
    expect(axfr).toMatch(/^www\.names\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.81$/m);
    expect(axfr).toMatch(/^www\.names\.test\.\s+300\s+IN\s+AAAA\s+2001:db8::80$/m);
    expect(axfr).toMatch(/^\*\.apps\.names\.test\.\s+300\s+IN\s+A\s+198\.51\.100\.4$/m);
    expect(axfr).not.toMatch(/TYPE65401/);
  });

  it('is signed online in a signed zone: the RRSIG is there and delv validates the answer', async () => {
    const on = await s.api('PUT', `/domains/${Z}`, { dnssec_enabled: true });
    expect(on.status).toBe(200);
    const dnskey = ((await on.json()) as { dnskey_records: string[] }).dnskey_records[0]!.split(' ').at(-1)!;
    expect(await eventually(async () => (await s.dig('+short', Z, 'DNSKEY')).includes(dnskey.slice(0, 20)))).toBe(true);
    const signed = await s.dig('+dnssec', '+noall', '+answer', `www.${Z}`, 'A');
    expect(signed).toMatch(/^www\.names\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.80$/m);
    expect(signed).toMatch(/^www\.names\.test\.\s+300\s+IN\s+RRSIG\s+A 13 3 300 /m);
    const anchor = path.join(s.dir, 'anchor.conf');
    fs.writeFileSync(anchor, `trust-anchors {\n  "${Z}." static-key 257 3 13 "${dnskey}";\n};\n`);
    for (const [name, type] of [
      [`www.${Z}.`, 'A'],
      [`www.${Z}.`, 'AAAA'],
      [`shop.apps.${Z}.`, 'A'],
    ] as const) {
      const { stdout } = await promisify(execFile)('delv', ['@127.0.0.1', '-p', String(s.dns), '-a', anchor, `+root=${Z}`, name, type]);
      expect(stdout, `${name} ${type}`).toMatch(/; fully validated/);
    }
  });
});
