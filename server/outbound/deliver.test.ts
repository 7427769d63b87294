/**
 * Webhook deliveries against a real receiver on loopback: the body and headers arrive as sent, a 2xx
 * is delivered and a 500 is not, a redirect is not followed, a receiver that never answers is cut
 * at the timeout, and a URL whose name resolves to an inside address ("localhost") or that is one is
 * refused before any connection unless private addresses are allowed.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver } from './deliver';

const allow = { allowPrivate: true };
let port: number;
let mute: number;
const servers: net.Server[] = [];
const got: { path?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ path: req.url, body, headers: req.headers });
      const p = (req.url ?? '').split('?')[0];
      if (p === '/fail') return void res.writeHead(500).end('no');
      if (p === '/moved') return void res.writeHead(307, { location: `http://127.0.0.1:${port}/ok` }).end();
      res.writeHead(204).end();
    });
  });
  const m = net.createServer(() => {});
  for (const x of [s, m]) {
    servers.push(x);
    await new Promise<void>((resolve) => x.listen(0, '127.0.0.1', resolve));
  }
  port = (s.address() as net.AddressInfo).port;
  mute = (m.address() as net.AddressInfo).port;
});
afterAll(() => {
  for (const s of servers) s.close();
});

const to = (path: string, host = '127.0.0.1', p = port) => ({ url: `http://${host}:${p}${path}?x=1`, body: '{"event":"ping"}', headers: { 'x-zonedeck-event': 'ping' }, timeoutMs: 2000 });

describe('a webhook delivery', () => {
  it('posts the body and headers, and a 2xx delivers it', async () => {
    expect(await deliver(to('/ok'), allow)).toMatchObject({ status: 204, error: null });
    expect(got.at(-1)).toMatchObject({ path: '/ok?x=1', body: '{"event":"ping"}', headers: { 'x-zonedeck-event': 'ping', 'content-type': 'application/json' } });
  });

  it('does not deliver on a 500, nor follow a redirect', async () => {
    expect(await deliver(to('/fail'), allow)).toMatchObject({ status: 500, error: 'HTTP 500' });
    const before = got.length;
    expect(await deliver(to('/moved'), allow)).toMatchObject({ status: 307, error: 'HTTP 307: redirect not followed' });
    expect(got.length).toBe(before + 1);
  });

  it('gives up on a receiver that never answers', async () => {
    expect(await deliver({ ...to('/', '127.0.0.1', mute), timeoutMs: 300 }, allow)).toMatchObject({ status: null, error: 'timed out after 300 ms' });
  });

  it('refuses an inside address, by name or literal, before connecting, unless allowed', async () => {
    const before = got.length;
    const byName = await deliver(to('/ok', 'localhost'), { allowPrivate: false });
    expect(byName.status).toBeNull();
    expect(byName.error).toMatch(/localhost resolves to .*not a public address/);
    expect((await deliver(to('/ok'), { allowPrivate: false })).error).toContain('127.0.0.1 is not a public address');
    expect((await deliver({ ...to('/ok'), url: 'http://[::ffff:127.0.0.1]:1/' }, { allowPrivate: false })).error).toContain('not a public address');
    expect(got.length).toBe(before);
    expect((await deliver(to('/ok', 'localhost'), allow)).status).toBe(204);
  });

  it('sends only to http and https URLs without credentials', async () => {
    expect((await deliver({ ...to('/ok'), url: 'ftp://example.com/' }, allow)).error).toContain('only http and https');
    expect((await deliver({ ...to('/ok'), url: `http://user:pw@127.0.0.1:${port}/` }, allow)).error).toContain('without credentials');
  });
});
