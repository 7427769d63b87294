/**
 * The BFF's own routes are rate-limited per client address,
 * and /bff/ip-usage pages through SQL and gives the same figures. Both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
afterEach(() => t.close());

async function signIn(address: string) {
  const res = await t.request('POST', '/bff/sign-in', { token: null, address, headers: { origin: 'http://localhost' }, body: { username: 'alice', password: 'password123' } });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

describe('the BFF', () => {
  it('answers 429 with Retry-After past RATE_LIMIT_ADDRESS on its own routes; another address goes on', async () => {
    t = await createTestApp({ RATE_LIMIT_ADDRESS: '1,8' });
    await t.user('alice');
    const cookie = await signIn('192.0.2.10');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await t.request('GET', '/bff/ip-usage', { token: null, address: '192.0.2.10', headers: { cookie } })).status);
    expect(statuses.slice(0, 7)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    const refused = await t.request('GET', '/bff/session', { token: null, address: '192.0.2.10', headers: { cookie } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect((await t.request('GET', '/bff/session', { token: null, address: '198.51.100.20', headers: { cookie } })).status).toBe(200);
  });

  it('ip-usage counts every address record in every zone of the user, paging through SQL', async () => {
    t = await createTestApp();
    const token = await t.user('alice');
    await t.user('bob');
    // IPs are the operator's to assign (the admin CLI's `ips add`).
    const alice = (await t.services.accounts.userByName('alice'))!;
    for (const cidr of ['192.0.2.0/24', '2001:db8::/48']) await t.services.ips.add(alice.id, cidr);
    for (let z = 0; z < 3; z++) {
      expect((await t.request('POST', '/api/v1/domains', { token, body: { name: `z${z}.test` } })).status).toBe(201);
      const rrsets = [
        { name: 'v4', record_type: 'A', changetype: 'REPLACE', records: Array.from({ length: 1200 }, (_, i) => `192.0.2.${i % 250}`).filter((v, i, a) => a.indexOf(v) === i) },
        { name: 'v6', record_type: 'AAAA', changetype: 'REPLACE', records: Array.from({ length: 30 }, (_, i) => `2001:db8::${(i + 1).toString(16)}`) },
        { name: 'other', record_type: 'A', changetype: 'REPLACE', records: ['198.51.100.1'] },
      ];
      expect((await t.request('PATCH', `/api/v1/domains/z${z}.test/rrsets`, { token, body: { rrsets } })).status).toBe(200);
      for (let i = 0; i < 1100; i += 250) {
        const many = Array.from({ length: 250 }, (_, k) => ({ name: `h${i + k}`, record_type: 'A', changetype: 'REPLACE', records: [`192.0.2.${k}`] }));
        expect((await t.request('PATCH', `/api/v1/domains/z${z}.test/rrsets`, { token, body: { rrsets: many } })).status).toBe(200);
      }
    }
    const cookie = await signIn('192.0.2.50');
    const usage = (await (await t.request('GET', '/bff/ip-usage', { token: null, address: '192.0.2.50', headers: { cookie } })).json()) as Array<{ total: number; records: unknown[] }>;
    // Per zone: 250 addresses at v4, 1,250 h-names (past one page of 1,000), 30 AAAA; 198.51.100.1 is in neither.
    expect(usage.map((u) => u.total)).toEqual([3 * (250 + 1250), 3 * 30]);
    expect(usage.map((u) => u.records.length)).toEqual([50, 50]);
  });
});
