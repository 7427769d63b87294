/**
 * "Before real use" through the dashboard's backend: administrators alone read what is still unset
 * on this server, each item with its state, and move the zones of another apex NS set to NAMESERVERS.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { servicesFor } from '../services';
import { dashboardSignIn } from '../testing/dashboard-client';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
afterEach(() => t.close());

async function signedInAdmin() {
  await t.user('root');
  await t.user('alice');
  await t.forge.users.update((await t.services.accounts.userByName('root')).id, { is_admin: true });
  return dashboardSignIn(t, 'root', 'password123');
}
const stateOf = (body: { items: { key: string; ok: boolean }[] }) => Object.fromEntries(body.items.map((i) => [i.key, i.ok]));

describe('before real use', () => {
  it('says what the quick start leaves unset, to administrators only', async () => {
    t = await createTestApp();
    const root = await signedInAdmin();
    const res = await root.send('GET', '/bff/setup');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(stateOf(body)).toEqual({ nameservers: false, hostmaster: false, zones_nameservers: true, admin_password: true, resolver: false, dns_port: false, public_url: false });
    expect(body.items.find((i: { key: string }) => i.key === 'nameservers')).toMatchObject({ critical: true, value: 'ns1.zonedeck.test, ns2.zonedeck.test' });

    const alice = await dashboardSignIn(t, 'alice', 'password123');
    const refused = await alice.send('GET', '/bff/setup');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('forbidden');
    expect((await alice.send('POST', '/bff/setup/nameservers/move', { from: ['ns1.zonedeck.test', 'ns2.zonedeck.test'] })).status).toBe(403);
  });

  it('is set on a server configured for real use (but PUBLIC_URL), but for the zones still on the old name servers, which the move takes over', async () => {
    t = await createTestApp({ NAMESERVERS: 'ns1.example.net,ns2.example.net', HOSTMASTER: 'hostmaster.example.net', RESOLVER: '127.0.0.1:53', DNS_PORT: '53' });
    const root = await signedInAdmin();
    // Zones made before NAMESERVERS was set (the services of that earlier start).
    const before = servicesFor(t.forge, { ...t.config, nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'] });
    const alice = await t.services.accounts.userByName('alice');
    for (const name of ['a.test', 'b.test']) await before.zones.create(alice.id, { name });

    const body = await (await root.send('GET', '/bff/setup')).json();
    expect(stateOf(body)).toMatchObject({ nameservers: true, hostmaster: true, zones_nameservers: false, resolver: true, dns_port: true, public_url: false });
    expect(body.other_nameservers).toEqual([{ nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], zones: 2 }]);

    const moved = await root.send('POST', '/bff/setup/nameservers/move', { from: ['ns1.zonedeck.test', 'ns2.zonedeck.test'] });
    expect(await moved.json()).toEqual({ moved: 2, failed: [] });
    const after = await (await root.send('GET', '/bff/setup')).json();
    expect(after.other_nameservers).toEqual([]);
    const zone = (await t.forge.domains.byName('a.test'))!;
    expect((await t.forge.records.atName(zone.id, '@')).filter((r) => r.record_type === 'NS').map((r) => r.content)).toEqual(['ns1.example.net', 'ns2.example.net']);
  });
});
