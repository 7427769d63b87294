/**
 * Health checks against real servers on loopback: TCP up and refused, HTTP status ranges, a body
 * match, a body that never ends cut at 64 KiB, a server that never answers cut at the timeout, a
 * self-signed certificate refused unless verification is off, the Host header and source address
 * as asked, a redirect judged by its status and never followed, and a private address never
 * contacted without the allow setting.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeSpec } from '../core/pools';
import { probe } from './probe';

const allow = { allowPrivate: true };
const servers: (http.Server | net.Server)[] = [];
let seen: { host?: string; from?: string; path?: string; count: number } = { count: 0 };
let plain: number;
let tls: number;
let silent: number;

const listen = (s: http.Server | net.Server, address = '127.0.0.1'): Promise<number> =>
  new Promise((resolve) => {
    servers.push(s);
    s.listen(0, address, () => resolve((s.address() as net.AddressInfo).port));
  });

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  seen = { host: req.headers.host, from: req.socket.remoteAddress, path: req.url, count: seen.count + 1 };
  if (req.url === '/down') return void res.writeHead(503).end('down');
  if (req.url === '/moved') return void res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
  if (req.url === '/endless') {
    res.writeHead(200);
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const more = () => {
      while (res.write(chunk));
      res.once('drain', more);
    };
    return more();
  }
  res.writeHead(200).end('all systems ok');
}

const spec = (over: Partial<ProbeSpec>): ProbeSpec => ({
  kind: 'http',
  address: '127.0.0.1',
  port: plain,
  path: '/',
  host: 'www.example.com',
  expectStatus: [200, 399],
  tlsVerify: true,
  timeoutMs: 2000,
  ...over,
});

beforeAll(async () => {
  plain = await listen(http.createServer(handler));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-probe-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=www.example.com', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`],
    { stdio: 'ignore' },
  );
  tls = await listen(https.createServer({ key: fs.readFileSync(`${dir}/key.pem`), cert: fs.readFileSync(`${dir}/cert.pem`) }, handler));
  fs.rmSync(dir, { recursive: true, force: true });
  // Takes the connection and never says a word.
  silent = await listen(net.createServer(() => {}));
});
afterAll(() => {
  for (const s of servers) s.close();
});

describe('a health check', () => {
  it('connects over TCP, and says when the port is closed', async () => {
    expect(await probe(spec({ kind: 'tcp' }), allow)).toMatchObject({ ok: true, detail: 'connected' });
    const closed = await listen(net.createServer());
    servers.pop()!.close();
    expect(await probe(spec({ kind: 'tcp', port: closed }), allow)).toMatchObject({ ok: false, detail: 'connection refused' });
  });

  it('judges an HTTP status by the range, sends the Host header, and matches the body', async () => {
    expect(await probe(spec({ path: '/health' }), allow)).toMatchObject({ ok: true, detail: 'HTTP 200', status: 200 });
    expect(seen).toMatchObject({ host: 'www.example.com', path: '/health' });
    expect(await probe(spec({ path: '/down' }), allow)).toMatchObject({ ok: false, detail: 'HTTP 503 (expected 200–399)' });
    expect(await probe(spec({ path: '/down', expectStatus: [200, 599] }), allow)).toMatchObject({ ok: true });
    expect(await probe(spec({ expectBody: 'systems ok' }), allow)).toMatchObject({ ok: true });
    expect((await probe(spec({ expectBody: 'meltdown' }), allow)).detail).toContain('does not contain "meltdown"');
  });

  it('reads no more than 64 KiB of a body that never ends, and gives up on a server that never answers', async () => {
    const endless = await probe(spec({ path: '/endless', expectBody: 'y', timeoutMs: 5000 }), allow);
    expect(endless.ok).toBe(false);
    expect(endless.detail).toContain('first 64 KiB');
    const mute = await probe(spec({ port: silent, timeoutMs: 300 }), allow);
    expect(mute).toMatchObject({ ok: false, detail: 'timed out after 300 ms' });
  });

  it('judges a redirect by its status and does not follow it', async () => {
    const before = seen.count;
    expect(await probe(spec({ path: '/moved', expectStatus: [200, 299] }), allow)).toMatchObject({ ok: false, detail: 'HTTP 302 (expected 200–299)' });
    expect(seen.count).toBe(before + 1);
  });

  it('refuses a self-signed certificate unless told not to verify', async () => {
    const verified = await probe(spec({ kind: 'https', port: tls }), allow);
    expect(verified.ok).toBe(false);
    expect(verified.detail).toMatch(/^TLS: /);
    expect(await probe(spec({ kind: 'https', port: tls, tlsVerify: false }), allow)).toMatchObject({ ok: true, detail: 'HTTP 200' });
  });

  it('comes from the source address asked for', async () => {
    await probe(spec({}), { allowPrivate: true, sourceAddress: '127.0.0.2' });
    expect(seen.from).toBe('127.0.0.2');
  });

  it('never contacts a private, loopback or mapped address without the allow setting', async () => {
    const before = seen.count;
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '169.254.169.254', '::1', '::ffff:127.0.0.1', 'fd00::1', '100.64.0.1']) {
      const r = await probe(spec({ address }), { allowPrivate: false });
      expect(r.ok, address).toBe(false);
      expect(r.detail, address).toContain('not a public address');
    }
    expect(seen.count).toBe(before);
  });
});
