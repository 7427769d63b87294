/**
 * Against the built server: deeply nested JSON is a 400 on every API with no
 * stack trace in the log; the BFF forwards only the dashboard's v1 resources, and only the v1 API's
 * `invalid_token` ends a session (a GET can no longer sign anyone out).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from './testing/server-process';

let server: ServerProcess;
let token: string;
let cookie = '';
let csrf = '';

const bff = (method: string, path: string, body?: string) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, origin: server.url, 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });

/** A GET with the path exactly as given (fetch would resolve its dot segments before sending). */
function rawGet(path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: 'GET', headers: { cookie, origin: server.url } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  server = await startServer();
  cli(server.dataDir, 'users', 'add', 'alice', '--password', 'correct horse battery');
  token = cli(server.dataDir, 'tokens', 'create', 'alice').at(-1)!;
  const res = await fetch(`${server.url}/bff/sign-in`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: 'correct horse battery' }),
  });
  expect(res.status).toBe(200);
  cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
});
afterAll(() => server?.stop());

describe('deeply nested JSON', () => {
  it('`[`×30000 is a 400 on the v1 API, the PowerDNS API and through the BFF; no stack trace is logged', async () => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const v1 = await fetch(`${server.url}/api/v1/domains`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: deep });
    expect(v1.status).toBe(400);
    expect(((await v1.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    const pdns = await fetch(`${server.url}/api/v1/servers/localhost/zones`, { method: 'POST', headers: { 'x-api-key': token, 'content-type': 'application/json' }, body: deep });
    expect(pdns.status).toBe(400);
    const viaBff = await bff('POST', '/bff/api/domains', deep);
    expect(viaBff.status).toBe(400);
    expect(server.child.exitCode).toBeNull();
    expect(server.lines.filter((l) => /RangeError|Maximum call stack|\s+at\s/.test(l))).toEqual([]);
    expect((await bff('GET', '/bff/api/domains')).status).toBe(200);
  });
});

describe('the BFF forwards only the dashboard’s v1 resources', () => {
  it('PowerDNS paths, dot segments and unknown resources are 404, and the session lives on', async () => {
    for (const path of [
      '/bff/api/servers',
      '/bff/api/servers/localhost/zones',
      '/bff/api/domains/..%2f..%2fmetrics',
      '/bff/api/domains/%2e%2e',
      '/bff/api/openapi.json',
      '/bff/api/',
      '/bff/api/ips/..%5c..%5cmetrics',
      '/bff/api/domains/%2e%2e/%2e%2e/metrics',
    ]) {
      const res = await rawGet(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).not.toMatch(/zonedeck_http_requests_total/);
    }
    // None of them ended the session.
    const session = await bff('GET', '/bff/session');
    expect(session.status).toBe(200);
    expect((await bff('GET', '/bff/api/domains')).status).toBe(200);
  });

  it('a token revoked behind the session ends it (the v1 API says invalid_token)', async () => {
    const tokens = (await (await fetch(`${server.url}/api/v1/tokens`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{ id: number; label: string }>;
    const sessionToken = tokens.find((t) => t.label === 'dashboard session')!;
    cli(server.dataDir, 'tokens', 'revoke', String(sessionToken.id));
    const res = await bff('GET', '/bff/api/domains');
    expect(res.status).toBe(401);
    expect((await bff('GET', '/bff/session')).status).toBe(401);
  });
});
