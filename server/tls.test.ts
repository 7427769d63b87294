/** HTTPS with TLS_CERT/TLS_KEY: HTTPS only, HSTS, and the session cookie marked Secure. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDataDir, type ServerProcess } from './testing/server-process';

let server: ServerProcess;

function get(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: init.method ?? 'GET', headers: init.headers, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

beforeAll(async () => {
  const dir = tempDataDir();
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', key, '-out', cert], {
    stdio: 'ignore',
  });
  expect(fs.existsSync(cert)).toBe(true);
  server = await startServer({ TLS_CERT: cert, TLS_KEY: key }, dir);
});
afterAll(() => server?.stop());

describe('HTTPS', () => {
  it('serves HTTPS with HSTS', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('does not answer plain HTTP on the same port', async () => {
    const port = Number(new URL(server.url).port);
    const reply = await new Promise<string>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
      let data = '';
      s.on('data', (d) => (data += d.toString('latin1')));
      s.on('close', () => resolve(data));
      s.on('error', () => resolve(data));
      setTimeout(() => s.destroy(), 2000);
    });
    expect(reply).not.toContain('"status":"ok"');
  });

  it('marks the session cookie Secure', async () => {
    const res = await get(`${server.url}/bff/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    const cookie = String(res.headers['set-cookie'] ?? '');
    expect(res.status).toBeLessThan(300);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });
});
