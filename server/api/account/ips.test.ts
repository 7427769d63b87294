import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
});
afterEach(() => t.close());

async function addIps(...texts: string[]) {
  const user = await t.services.accounts.userByName('alice');
  for (const text of texts) await t.services.ips.add(user.id, text, !text.startsWith('10.'));
}

describe('GET /ips', () => {
  it('returns every SPEC field computed for addresses and ranges of both families', async () => {
    await addIps('192.0.2.10', '198.51.100.0/24', '2001:DB8::1', '2001:db8:1::/48', '10.0.0.0/8');
    const res = await t.request('GET', '/api/v1/ips', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await res.json();
    expect(body).toEqual([
      { id: expect.any(Number), address: '192.0.2.10', active: true, cidr: 32, ipv4: true, ipv6: false, first: '192.0.2.10', last: '192.0.2.10' },
      { id: expect.any(Number), address: '198.51.100.0', active: true, cidr: 24, ipv4: true, ipv6: false, first: '198.51.100.0', last: '198.51.100.255' },
      { id: expect.any(Number), address: '2001:db8::1', active: true, cidr: 128, ipv4: false, ipv6: true, first: '2001:db8::1', last: '2001:db8::1' },
      { id: expect.any(Number), address: '2001:db8:1::', active: true, cidr: 48, ipv4: false, ipv6: true, first: '2001:db8:1::', last: '2001:db8:1:ffff:ffff:ffff:ffff:ffff' },
      { id: expect.any(Number), address: '10.0.0.0', active: false, cidr: 8, ipv4: true, ipv6: false, first: '10.0.0.0', last: '10.255.255.255' },
    ]);
  });

  it('paginates with page and per_page and reports totals in headers', async () => {
    await addIps(...Array.from({ length: 7 }, (_, i) => `192.0.2.${i + 1}`));
    const first = await t.request('GET', '/api/v1/ips?per_page=3');
    expect((await first.json()).map((r: { address: string }) => r.address)).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3']);
    expect(first.headers.get('x-total-count')).toBe('7');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-per-page')).toBe('3');
    expect(first.headers.get('link')).toBe('</api/v1/ips?per_page=3&page=2>; rel="next"');
    const last = await t.request('GET', '/api/v1/ips?per_page=3&page=3');
    expect((await last.json()).map((r: { address: string }) => r.address)).toEqual(['192.0.2.7']);
    expect(last.headers.get('link')).toBe('</api/v1/ips?per_page=3&page=2>; rel="prev"');
    const beyond = await t.request('GET', '/api/v1/ips?page=9');
    expect(await beyond.json()).toEqual([]);
  });

  it('never echoes the apikey into pagination links', async () => {
    await addIps('192.0.2.1', '192.0.2.2');
    const token = await t.user('carol');
    const carol = await t.services.accounts.userByName('carol');
    await t.services.ips.add(carol.id, '192.0.2.1');
    await t.services.ips.add(carol.id, '192.0.2.2');
    const res = await t.request('GET', `/api/v1/ips?per_page=1&apikey=${token}`, { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).not.toContain(token);
  });

  it.each(['0', '-1', 'abc', '1.5'])('rejects page=%s with 400 naming the field', async (page) => {
    const res = await t.request('GET', `/api/v1/ips?page=${page}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual({ page: 'must be a whole number from 1 to 9999999' });
  });

  it.each(['0', '501', 'x'])('rejects per_page=%s', async (perPage) => {
    const res = await t.request('GET', `/api/v1/ips?per_page=${perPage}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.per_page).toMatch(/1 to 500/);
  });
});
