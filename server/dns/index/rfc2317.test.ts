/**
 * RFC 2317 classless reverse delegation: a zone `0/26.2.0.192.in-addr.arpa`
 * is created through the v1 API (the `/` percent-encoded in the path) and the PowerDNS API (`=2F`
 * in the id, as octoDNS escapes it), and the parent's CNAME and NS point into it; dig follows them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
let token: string;
beforeAll(async () => {
  s = await startServer();
  token = ((await (await s.api('POST', '/tokens', { label: 'pdns' })).json()) as { token: string }).token;
});
afterAll(() => s?.stop());

describe('RFC 2317 names', () => {
  it('a classless reverse zone, its PTRs, and the parent CNAME and NS that lead to it', async () => {
    expect((await s.api('POST', '/domains', { name: '2.0.192.in-addr.arpa' })).status).toBe(201);
    const child = await s.api('POST', '/domains', { name: '0/26.2.0.192.in-addr.arpa' });
    expect(child.status, await child.clone().text()).toBe(201);
    expect(((await child.json()) as { name: string }).name).toBe('0/26.2.0.192.in-addr.arpa');
    const ptr = await s.api('POST', `/domains/${encodeURIComponent('0/26.2.0.192.in-addr.arpa')}/records`, { name: '1', record_type: 'PTR', content: 'host.example.com.' });
    expect(ptr.status, await ptr.clone().text()).toBe(200);
    for (const body of [
      { name: '1', record_type: 'CNAME', content: '1.0/26.2.0.192.in-addr.arpa.' },
      { name: '0/26', record_type: 'NS', content: 'ns1.zonedeck.test.' },
    ]) {
      const res = await s.api('POST', '/domains/2.0.192.in-addr.arpa/records', body);
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect((await s.dig('+short', '+norec', '1.0/26.2.0.192.in-addr.arpa', 'PTR')).trim()).toBe('host.example.com.');
    const viaParent = await s.dig('+norec', '1.2.0.192.in-addr.arpa', 'PTR');
    expect(viaParent).toMatch(/1\.2\.0\.192\.in-addr\.arpa\.\s+\d+\s+IN\s+CNAME\s+1\.0\/26\.2\.0\.192\.in-addr\.arpa\./);
    // The PowerDNS API names it with =2F, as octoDNS sends it.
    const zone = await fetch(`${s.http}/api/v1/servers/localhost/zones/0=2F26.2.0.192.in-addr.arpa.`, { headers: { 'X-API-Key': token } });
    expect(zone.status).toBe(200);
    const body = (await zone.json()) as { id: string; rrsets: Array<{ name: string; type: string }> };
    expect(body.id).toBe('0=2F26.2.0.192.in-addr.arpa.');
    expect(body.rrsets.map((r) => `${r.name} ${r.type}`)).toContain('1.0/26.2.0.192.in-addr.arpa. PTR');
    // Outside the reverse trees a slash is still not a name.
    expect((await s.api('POST', '/domains', { name: 'a/b.example.com' })).status).toBe(400);
  });
});
