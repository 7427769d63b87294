/**
 * What PowerDNS's web server answers around the API proper: a CORS preflight (no key, the
 * methods of the path, 404 for a path it does not serve) and the discovery document at
 * GET /api/v1, which zonedeck's own API (Bearer) leaves alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../testing/pdns-harness';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());

describe('OPTIONS (CORS preflight)', () => {
  it.each([
    ['/api/v1/servers/localhost', 'GET, OPTIONS'],
    [`${ZONES}/example.org.`, 'GET, PATCH, PUT, DELETE, OPTIONS'],
    [ZONES, 'GET, POST, OPTIONS'],
    [`${ZONES}/example.org./metadata/SOA-EDIT-API`, 'GET, PUT, DELETE, OPTIONS'],
    ['/api/v1/servers/localhost/tsigkeys', 'GET, POST, OPTIONS'],
  ])('%s: %s, without a key, and no Allow-Origin', async (path, methods) => {
    const res = await h.call('OPTIONS', path, undefined, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-methods')).toBe(methods);
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-API-Key');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('404 for a path zonedeck does not serve, or another server', async () => {
    for (const path of ['/api/v1/servers/localhost/invalid', '/api/v1/servers/remotehost', '/api/v1/servers/localhost/config']) {
      expect((await h.call('OPTIONS', path, undefined, { key: null })).status).toBe(404);
    }
    expect((await h.json('GET', '/api/v1/servers/remotehost')).status).toBe(404);
  });
});

describe('GET /api/v1', () => {
  it('answers PowerDNS’s discovery to X-API-Key; 401 to a wrong key', async () => {
    expect(await h.json('GET', '/api/v1')).toEqual({ status: 200, body: [{ server_url: '/api/v1/servers{/server}', api_features: [] }] });
    expect(await h.json('GET', '/api/v1', undefined, { key: 'zd_wrong' })).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  });

  it('is zonedeck’s own API to a client without X-API-Key', async () => {
    const res = await h.t.request('GET', '/api/v1');
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });
});
