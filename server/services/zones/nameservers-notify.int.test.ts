/**
 * A restart with another NAMESERVERS, seen from a real secondary: zonedeck moves the zone's apex NS
 * set at start, NOTIFYs Knot as for any change, and Knot transfers and serves the new set.
 */
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { knotPreamble } from '../../testing/daemons';
import { startKnotSecondary, type KnotSecondary } from '../../testing/knot-secondary';
import { cli, startServer, tempDataDir, type ServerProcess } from '../../testing/server-process';
import { eventually, freePort } from '../../testing/test-server';

const ZONE = 'moved.example';
let zd: ServerProcess | undefined;
let knot: KnotSecondary | undefined;
const dataDir = tempDataDir();
afterAll(async () => {
  await knot?.stop();
  await zd?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('moves the apex NS set at start and the secondary follows by NOTIFY', async () => {
  // One DNS port across both starts: Knot's primary stays where it was.
  const dnsPort = await freePort();
  zd = await startServer({ DNS_PORT: String(dnsPort) }, dataDir);
  const token = cli(dataDir, 'tokens', 'create', 'admin').at(-1)!;
  const api = (method: string, url: string, body: unknown) =>
    fetch(`${zd!.url}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await api('POST', '/domains', { name: ZONE })).status).toBe(201);
  knot = await startKnotSecondary(
    (dir, port) => `${knotPreamble(dir, port, dnsPort)}template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: none
zone:
  - domain: ${ZONE}
    master: zonedeck
    acl: notify-from-zonedeck
`,
  );
  expect((await api('PUT', `/domains/${ZONE}`, { allow_transfer: ['127.0.0.1'], also_notify: [`127.0.0.1:${knot.port}`] })).status).toBe(200);
  const ns = async () => (await knot!.ask(ZONE, 'NS')).sort();
  expect(await eventually(async () => (await ns()).join() === 'ns1.zonedeck.test.,ns2.zonedeck.test.', 75, 400), knot.output()).toBe(true);

  await zd.stop();
  zd = await startServer({ DNS_PORT: String(dnsPort), NAMESERVERS: 'ns1.example.net,ns2.example.net' }, dataDir);
  // Knot's refresh timer is hours away: only a NOTIFY brings the new set this soon.
  expect(await eventually(async () => (await ns()).join() === 'ns1.example.net.,ns2.example.net.', 100, 100), knot.output()).toBe(true);
}, 90_000);
