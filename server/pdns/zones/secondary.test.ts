/**
 * Secondary zones through the PowerDNS API, against a real Knot primary: POST …/zones with kind
 * Slave and masters (and slave_tsig_key_ids for the key its transfers are signed with), the zone
 * listed as Slave with its masters, PUT …/axfr-retrieve, writes refused, kinds zonedeck does not make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnotPrimary, primaryZoneFile } from '../../testing/knot-primary';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

const SECRET = Buffer.alloc(32, 9).toString('base64');
let zd: RunningServer;
let knot: KnotPrimary;
const pdns = (method: string, path: string, body?: unknown) => zd.pdns(method, path, body);

beforeAll(async () => {
  zd = await startServer();
  expect((await zd.api('POST', '/tsig-keys', { name: 'pdns-xfr', secret: SECRET })).status).toBe(201);
  knot = await KnotPrimary.start([{ name: 'slave.test', file: primaryZoneFile('slave.test', 5), key: { name: 'pdns-xfr', secret: SECRET } }], zd.dns);
});

afterAll(async () => {
  await knot?.stop(true);
  await zd?.stop();
});

describe('the PowerDNS API on secondary zones', () => {
  it('creates a Slave zone of its masters, transfers it signed, and lists it as Slave', async () => {
    const res = await pdns('POST', '/zones', { name: 'slave.test.', kind: 'Slave', masters: [knot.address], slave_tsig_key_ids: ['pdns-xfr.'] });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'slave.test.', kind: 'Slave', masters: [knot.address] });
    expect(await eventually(async () => (await zd.dig('+short', 'www.slave.test', 'A')).trim() === '192.0.2.10', 100, 100), knot.output).toBe(true);
    const zone = (await (await pdns('GET', '/zones/slave.test.')).json()) as { kind: string; serial: number; rrsets: { type: string; records: { content: string }[] }[] };
    expect(zone.kind).toBe('Slave');
    expect(zone.serial).toBe(5);
    expect(zone.rrsets.find((r) => r.type === 'SOA')!.records[0]!.content).toBe('ns.hidden-primary.example. hostmaster.hidden-primary.example. 5 3600 600 86400 300');
    const list = (await (await pdns('GET', '/zones')).json()) as { name: string; kind: string }[];
    expect(list.find((z) => z.name === 'slave.test.')?.kind).toBe('Slave');
  });

  it('retrieves on PUT …/axfr-retrieve, and refuses it for a Native zone', async () => {
    await knot.set('slave.test', 'fresh', '300', 'TXT', '"from the primary"');
    const res = await pdns('PUT', '/zones/slave.test./axfr-retrieve');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: string }).result).toMatch(/retrieval request for 'slave\.test\.'/);
    expect(await eventually(async () => (await zd.dig('+short', 'fresh.slave.test', 'TXT')).trim() === '"from the primary"', 100, 100)).toBe(true);
    expect((await pdns('POST', '/zones', { name: 'native.test.', kind: 'Native', nameservers: [] })).status).toBe(201);
    expect((await pdns('PUT', '/zones/native.test./axfr-retrieve')).status).toBe(422);
  });

  it('refuses changes to a Slave zone and bad Slave zones, with reasons', async () => {
    const patch = await pdns('PATCH', '/zones/slave.test.', { rrsets: [{ name: 'x.slave.test.', type: 'A', ttl: 60, changetype: 'REPLACE', records: [{ content: '192.0.2.1', disabled: false }] }] });
    expect(patch.status).toBeGreaterThanOrEqual(400);
    expect(await patch.text()).toMatch(/secondary zone/);
    expect((await zd.dig('+short', 'x.slave.test', 'A')).trim()).toBe('');
    const bad = async (body: object, says: RegExp) => {
      const res = await pdns('POST', '/zones', { name: 'bad.test.', ...body });
      expect(res.status).toBe(422);
      expect(await res.text()).toMatch(says);
    };
    await bad({ kind: 'Slave', masters: [] }, /masters/);
    await bad({ kind: 'Slave', masters: ['primary.example.com'] }, /masters.*not an IP address/);
    await bad({ kind: 'Native', masters: ['192.0.2.1'] }, /masters/);
    await bad({ kind: 'Consumer' }, /not supported/);
    await bad({ kind: 'Slave', masters: ['192.0.2.1'], slave_tsig_key_ids: ['nobody.'] }, /does not exist/);
    expect((await pdns('GET', '/zones/bad.test.')).status).toBe(404);
  });
});
