/**
 * A catalog consumed (RFC 9432) from a real producer: Knot generates a catalog of its member zones;
 * an administrator follows it, and each member becomes a secondary zone of the chosen owner,
 * transferred and answered; a member dropped from the catalog is deleted (and kept restorable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnotPrimary, primaryZoneFile, type PrimaryZone } from '../../testing/knot-primary';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let zd: RunningServer;
let knot: KnotPrimary;
const member = (name: string): PrimaryZone => ({ name, file: primaryZoneFile(name, 3), catalog: 'catalog.test' });

beforeAll(async () => {
  zd = await startServer();
  knot = await KnotPrimary.start([member('one.test'), member('two.test')], zd.dns);
});

afterAll(async () => {
  await knot?.stop(true);
  await zd?.stop();
});

describe('a catalog consumer', () => {
  it('makes every member a secondary zone of the owner, transferred and answered', async () => {
    const res = await zd.api('POST', '/catalogs', { zone: 'catalog.test', primaries: [knot.address], owner: 'admin' });
    expect(res.status, await res.clone().text()).toBe(201);
    for (const name of ['one.test', 'two.test']) expect(await eventually(async () => (await zd.dig('+short', `www.${name}`, 'A')).trim() === '192.0.2.10', 100, 100), knot.output).toBe(true);
    const zone = (await (await zd.api('GET', '/domains/one.test')).json()) as { kind: string; primaries: string[] };
    expect(zone).toMatchObject({ kind: 'secondary', primaries: [knot.address] });
    const [catalog] = (await (await zd.api('GET', '/catalogs')).json()) as { zone: string; members: number; owner: string; error: string | null }[];
    expect(catalog).toMatchObject({ zone: 'catalog.test', members: 2, owner: 'admin', error: null });
  });

  it('deletes a member the catalog drops (restorable), and leaves zones made by hand alone', async () => {
    expect((await zd.api('POST', '/domains', { name: 'byhand.test' })).status).toBe(201);
    await knot.restart([member('one.test')], zd.dns);
    expect((await zd.api('POST', '/catalogs/catalog.test/retrieve')).status).toBe(202);
    expect(await eventually(async () => (await zd.api('GET', '/domains/two.test')).status === 404, 100, 100)).toBe(true);
    expect((await zd.api('GET', '/domains/one.test')).status).toBe(200);
    expect((await zd.api('GET', '/domains/byhand.test')).status).toBe(200);
    const deleted = (await (await zd.api('GET', '/deleted-domains')).json()) as { name: string }[];
    expect(deleted.map((d) => d.name)).toContain('two.test');
  });

  it('refuses bad input naming the field, and a catalog followed twice', async () => {
    const bad = async (body: object, field: string) => {
      const res = await zd.api('POST', '/catalogs', body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields[field]).toBeTruthy();
    };
    await bad({ zone: 'c2.test', primaries: ['not-an-address'], owner: 'admin' }, 'primaries');
    await bad({ zone: 'c2.test', primaries: ['192.0.2.1'], owner: 'nobody-here' }, 'owner');
    await bad({ zone: 'c2.test', primaries: ['192.0.2.1'], owner: 'admin', tsig_key: 'nokey' }, 'tsig_key');
    expect((await zd.api('POST', '/catalogs', { zone: 'catalog.test', primaries: [knot.address], owner: 'admin' })).status).toBe(409);
  });
});
