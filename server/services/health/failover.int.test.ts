/**
 * A failover pool in front of three real HTTP servers (127.0.0.1, .2 and .3 on one port), in the real
 * server process with a signed zone: stop the first and, after its failures, DNS answers the second
 * — signed, and validated by `delv` from the zone's own key; start it again and it is answered
 * again after its successes. Each move is a change set of the zone's history, on the pool's
 * timeline, and counted in /metrics. A weighted pool answers one member per query, by weight.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delv } from '../../testing/delv';
import { freePort, startServer, type RunningServer } from '../../testing/test-server';
import { waitUntil } from '../../testing/wait-until';

const run = promisify(execFile);
let server: RunningServer;
let port: number;
const backends = new Map<string, http.Server>();

/** An HTTP server on `address:port` answering 200 "ok" at /health. */
function startBackend(address: string): Promise<void> {
  const s = http.createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  backends.set(address, s);
  return new Promise((resolve) => s.listen(port, address, resolve));
}
function stopBackend(address: string): Promise<void> {
  const s = backends.get(address)!;
  backends.delete(address);
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}

const json = async (method: string, url: string, body?: unknown) => {
  const res = await server.api(method, url, body);
  return { status: res.status, body: (await res.json()) as any };
};
const answer = async (name: string) =>
  (await server.dig('+short', name, 'A'))
    .trim()
    .split('\n')
    .filter((l) => /^\d+\.\d+\.\d+\.\d+$/.test(l))
    .sort();

beforeAll(async () => {
  port = await freePort();
  for (const a of ['127.0.0.1', '127.0.0.2', '127.0.0.3']) await startBackend(a);
  server = await startServer({ HEALTH_ALLOW_PRIVATE: 'true', HEALTH_MIN_INTERVAL_S: '1' });
  expect((await json('POST', '/domains', { name: 'example.com', dnssec_enabled: true, minimum_ttl: 60 })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  for (const a of [...backends.keys()]) await stopBackend(a);
});

describe('a failover pool', () => {
  it('answers the next server while the first is down, signed, and the first again once it is back', async () => {
    const made = await json('POST', '/domains/example.com/pools', {
      name: 'www',
      type: 'A',
      ttl: 5,
      policy: 'failover',
      members: [
        { address: '127.0.0.1', priority: 1 },
        { address: '127.0.0.2', priority: 2 },
        { address: '127.0.0.3', priority: 3 },
      ],
      check: { kind: 'http', port, path: '/health', interval_s: 1, timeout_ms: 500, failures: 2, successes: 2 },
    });
    expect(made.status).toBe(201);
    const pool = `/domains/example.com/pools/${made.body.id}`;
    await waitUntil('every member is judged up', async () => (await json('GET', pool)).body.members.every((m: { state: string }) => m.state === 'up'), { limitMs: 20_000 });
    expect(await answer('www.example.com')).toEqual(['127.0.0.1']);

    await stopBackend('127.0.0.1');
    await waitUntil('DNS answers the second server', async () => (await answer('www.example.com')).join() === '127.0.0.2', { limitMs: 20_000 });
    const down = (await json('GET', pool)).body;
    expect(down.members[0]).toMatchObject({ address: '127.0.0.1', state: 'down' });
    expect(down.members[0].nodes[0]).toMatchObject({ ok: false, state: 'down' });
    expect(down.members[0].nodes[0].detail).toMatch(/refused|timed out/);
    expect(down.transitions[0]).toMatchObject({ address: '127.0.0.1', from: 'up', to: 'down' });
    expect(down.answer).toEqual(['127.0.0.2']);

    // Signed online, and valid from the zone's own key down.
    const dnskey = (await server.dig('+short', 'example.com', 'DNSKEY'))
      .trim()
      .split('\n')
      .find((l) => l.startsWith('257 '))!;
    const [, , , ...key] = dnskey.split(' ');
    const anchor = path.join(server.dir, 'anchor.conf');
    fs.writeFileSync(anchor, `trust-anchors {\n  "example.com." static-key 257 3 13 "${key.join('')}";\n};\n`);
    const v = await delv(anchor, { host: '127.0.0.1', port: server.dns }, 'www.example.com', 'A', 'example.com');
    expect(v.validated, v.output).toBe(true);
    expect(v.output).toContain('127.0.0.2');

    await startBackend('127.0.0.1');
    await waitUntil('DNS answers the first server again', async () => (await answer('www.example.com')).join() === '127.0.0.1', { limitMs: 20_000 });
    const back = (await json('GET', pool)).body;
    expect(back.transitions[0]).toMatchObject({ address: '127.0.0.1', from: 'down', to: 'up' });

    const history = (await json('GET', '/domains/example.com/changes')).body as { source: string; added: { content: string }[] }[];
    expect(history.filter((c) => c.source === 'health').map((c) => c.added.map((a) => a.content).join())).toEqual(['127.0.0.1', '127.0.0.2']);
    const metrics = await (await fetch(`${server.http}/metrics`)).text();
    expect(metrics).toMatch(/zonedeck_pool_member_transitions_total\{to="down"\} 1/);
    expect(metrics).toMatch(/zonedeck_health_checks_total\{outcome="failed"\} [1-9]/);
  }, 90_000);

  it('answers one member of a weighted pool per query, by weight, never one of weight 0 while others are up', async () => {
    const made = await json('POST', '/domains/example.com/pools', {
      name: 'w',
      type: 'A',
      policy: 'weighted',
      members: [
        { address: '127.0.0.1', weight: 3 },
        { address: '127.0.0.2', weight: 1 },
        { address: '127.0.0.3', weight: 0 },
      ],
      check: { kind: 'tcp', port, interval_s: 1, timeout_ms: 500 },
    });
    expect(made.status).toBe(201);
    // The zone holds both healthy members of non-zero weight (what secondaries get).
    expect(made.body.answer).toEqual(['127.0.0.1', '127.0.0.2']);
    const args = Array.from({ length: 200 }, () => ['+short', 'w.example.com', 'A']).flat();
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(server.dns), '+time=2', '+tries=2', ...args], { maxBuffer: 1 << 22 });
    const seen = stdout.trim().split('\n').filter(Boolean);
    expect(seen).toHaveLength(200);
    const count = (a: string) => seen.filter((l) => l === a).length;
    expect(count('127.0.0.3')).toBe(0);
    expect(count('127.0.0.2')).toBeGreaterThan(10);
    expect(count('127.0.0.1')).toBeGreaterThan(count('127.0.0.2'));
  }, 60_000);
});
