/**
 * Disabled records, against the built server with dig: kept and listed
 * with `disabled: true`, never served, signed or transferred; the SPEC API's shape for served
 * records unchanged; a toggle is a change set that IXFR sees as the record leaving (or coming
 * back) and that a revert undoes; the PowerDNS API's `disabled` (PowerDNS-Admin's toggle) reads
 * back as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
let pdnsKey: string;
beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'off.test' })).status).toBe(201);
  expect((await s.api('POST', '/domains', { name: 'signed-off.test', dnssec_enabled: true })).status).toBe(201);
  pdnsKey = ((await (await s.api('POST', '/tokens', { label: 'pdns' })).json()) as { token: string }).token;
});
afterAll(() => s?.stop());

type Rec = { id: number; name: string; content: string; disabled?: boolean };
const json = async <T>(r: Response | Promise<Response>) => (await (await r).json()) as T;
const answers = async (...args: string[]) => (await s.dig('+short', ...args)).trim();
const serial = async (zone: string) => (await json<{ serial_number: number }>(s.api('GET', `/domains/${zone}`))).serial_number;
const pdns = (method: string, path: string, body?: unknown) =>
  fetch(`${s.http}/api/v1/servers/localhost${path}`, { method, headers: { 'x-api-key': pdnsKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

describe('disabled records through the API', () => {
  it('a record created disabled is listed with disabled: true and not served; a served one has no disabled field', async () => {
    const off = await json<Rec>(s.api('POST', '/domains/off.test/records', { name: 'quiet', record_type: 'A', content: '192.0.2.10', disabled: true }));
    expect(off.disabled).toBe(true);
    const on = await json<Rec>(s.api('POST', '/domains/off.test/records', { name: 'loud', record_type: 'A', content: '192.0.2.11' }));
    expect(on).not.toHaveProperty('disabled');
    const list = await json<Rec[]>(s.api('GET', '/domains/off.test/records'));
    expect(list.find((r) => r.name === 'quiet')?.disabled).toBe(true);
    expect(list.find((r) => r.name === 'loud')).not.toHaveProperty('disabled');
    expect(await s.dig('quiet.off.test', 'A')).toMatch(/status: NXDOMAIN/);
    expect(await answers('loud.off.test', 'A')).toBe('192.0.2.11');
    expect((await s.api('POST', '/domains/off.test/records', { name: 'x', record_type: 'A', content: '192.0.2.12', disabled: 'yes' })).status).toBe(400);
  });

  it('disabling stops the answer at once, enabling brings it back; each is a change set, and a revert undoes it', async () => {
    const rec = await json<Rec>(s.api('POST', '/domains/off.test/records', { name: 'www', record_type: 'A', content: '192.0.2.20' }));
    await s.api('POST', '/domains/off.test/records', { name: 'www', record_type: 'A', content: '192.0.2.21' });
    const put = await json<Rec>(s.api('PUT', `/domains/off.test/records/${rec.id}`, { disabled: true }));
    expect(put).toMatchObject({ id: rec.id, content: '192.0.2.20', disabled: true });
    expect(await answers('www.off.test', 'A')).toBe('192.0.2.21');
    const [change] = await json<Array<{ id: number; added: unknown[]; removed: unknown[] }>>(s.api('GET', '/domains/off.test/changes?per_page=1'));
    expect(change!.removed).toEqual([{ name: 'www', record_type: 'A', ttl: '3600', content: '192.0.2.20' }]);
    expect(change!.added).toEqual([{ name: 'www', record_type: 'A', ttl: '3600', content: '192.0.2.20', disabled: true }]);
    const revert = await s.api('POST', `/domains/off.test/changes/${change!.id}/revert`, {});
    expect(revert.status, await revert.clone().text()).toBe(200);
    expect((await answers('www.off.test', 'A')).split('\n').sort()).toEqual(['192.0.2.20', '192.0.2.21']);
    expect((await json<Rec>(s.api('GET', `/domains/off.test/records/${rec.id}`))).disabled).toBeUndefined();
    await s.api('PUT', `/domains/off.test/records/${rec.id}`, { disabled: true });
    await s.api('PUT', `/domains/off.test/records/${rec.id}`, { disabled: false });
    expect((await answers('www.off.test', 'A')).split('\n').sort()).toEqual(['192.0.2.20', '192.0.2.21']);
  });

  it('transfers leave a disabled record out: AXFR lacks it, IXFR shows the toggle as a removal, the zone file lacks it', async () => {
    const rec = await json<Rec>(s.api('POST', '/domains/off.test/records', { name: 'mail', record_type: 'TXT', content: 'kept but quiet' }));
    const before = await serial('off.test');
    await s.api('PUT', `/domains/off.test/records/${rec.id}`, { disabled: true });
    const axfr = await s.dig('off.test', 'AXFR');
    expect(axfr).not.toMatch(/kept but quiet/);
    expect(axfr).not.toMatch(/quiet\.off\.test/);
    const ixfr = await s.dig(`IXFR=${before}`, 'off.test');
    // RFC 1995 §4: old SOA, the removed TXT, new SOA, nothing added, current SOA.
    const lines = ixfr.split('\n').filter((l) => l && !l.startsWith(';'));
    expect(lines.filter((l) => /\tTXT\t/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /\tSOA\t/.test(l))).toHaveLength(4);
    const file = await (await s.api('GET', '/domains/off.test/zone')).text();
    expect(file).toMatch(/192\.0\.2\.21/);
    expect(file).not.toMatch(/kept but quiet|192\.0\.2\.10/);
  });

  it('a signed zone neither serves nor signs a disabled record: the name does not exist (compact denial, NXNAME)', async () => {
    await s.api('POST', '/domains/signed-off.test/records', { name: 'hidden', record_type: 'A', content: '192.0.2.30', disabled: true });
    const out = await s.dig('+dnssec', 'hidden.signed-off.test', 'A');
    // RFC 9824: a name that does not exist is NOERROR with an NSEC whose bitmap is RRSIG NSEC NXNAME.
    expect(out).toMatch(/hidden\.signed-off\.test\.\s+\d+\s+IN\s+NSEC\s+\S+ RRSIG NSEC TYPE128/);
    expect(out).not.toMatch(/192\.0\.2\.30/);
    expect(await s.dig('signed-off.test', 'AXFR')).not.toMatch(/hidden/);
  });
});

describe("disabled records through the PowerDNS API (PowerDNS-Admin's Disable toggle)", () => {
  it('REPLACE with disabled: true is kept and read back as written, and not served', async () => {
    const rrset = {
      name: 'app.off.test.',
      type: 'A',
      ttl: 300,
      changetype: 'REPLACE',
      records: [
        { content: '192.0.2.40', disabled: true },
        { content: '192.0.2.41', disabled: false },
      ],
    };
    expect((await pdns('PATCH', '/zones/off.test.', { rrsets: [rrset] })).status).toBe(204);
    const zone = await json<{ rrsets: Array<{ name: string; type: string; records: unknown[] }> }>(pdns('GET', '/zones/off.test.'));
    const app = zone.rrsets.find((r) => r.name === 'app.off.test.' && r.type === 'A')!;
    expect(app.records).toEqual(expect.arrayContaining(rrset.records));
    expect(app.records).toHaveLength(2);
    expect(await answers('app.off.test', 'A')).toBe('192.0.2.41');
    // Enabling it again through the same toggle serves both.
    rrset.records[0]!.disabled = false;
    expect((await pdns('PATCH', '/zones/off.test.', { rrsets: [rrset] })).status).toBe(204);
    expect((await answers('app.off.test', 'A')).split('\n').sort()).toEqual(['192.0.2.40', '192.0.2.41']);
  });

  it("the service's SOA and apex NS cannot be disabled (422 naming the record)", async () => {
    const zone = await json<{ rrsets: Array<{ name: string; type: string; ttl: number; records: Array<{ content: string }> }> }>(pdns('GET', '/zones/off.test.'));
    const ns = zone.rrsets.find((r) => r.name === 'off.test.' && r.type === 'NS')!;
    const r = await pdns('PATCH', '/zones/off.test.', { rrsets: [{ ...ns, changetype: 'REPLACE', records: ns.records.map((x) => ({ content: x.content, disabled: true })) }] });
    expect(r.status).toBe(422);
    expect(((await r.json()) as { error: string }).error).toMatch(/records\.0\.disabled/);
    expect(await answers('off.test', 'NS')).toMatch(/ns1\.zonedeck\.test/);
  });
});
