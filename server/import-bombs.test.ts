/**
 * Against the built server: zone-file bombs on every import path are
 * refused with a small 400 and the process lives; a big legitimate import leaves /healthz answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from './testing/server-process';

let server: ServerProcess;
let token: string;
const call = (method: string, path: string, body?: string | object, type?: string) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-api-key': token, ...(body === undefined ? {} : { 'content-type': type ?? (typeof body === 'string' ? 'text/dns' : 'application/json') }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

/** 225 bytes whose width makes 200-megabyte names. */
const WIDTH_BOMB = '$GENERATE 0-65535 ${0,200000000} A 192.0.2.1\n'.repeat(5);
/** 530 bytes, 983,040 records. */
const COUNT_BOMB = Array.from({ length: 15 }, (_, k) => `$GENERATE 0-65535 a$-${k} A 192.0.2.1`).join('\n');

beforeAll(async () => {
  server = await startServer({ MAX_RECORDS_PER_ZONE: '200000', BULK_BODY_LIMIT_BYTES: String(64 * 1024 * 1024) });
  cli(server.dataDir, 'users', 'add', 'alice');
  token = cli(server.dataDir, 'tokens', 'create', 'alice').at(-1)!;
  expect((await call('POST', '/api/v1/domains', { name: 'bomb.test' })).status).toBe(201);
});
afterAll(() => server?.stop());

async function expectRefused(res: Response, line: RegExp) {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(400);
  expect(text.length).toBeLessThan(16_384);
  expect(text).toMatch(line);
}

describe('zone-file bombs', () => {
  for (const [what, bomb, message] of [
    ["the audit's width bomb", WIDTH_BOMB, /the file holds more than 200000 records/],
    ['a width bomb within the record limit', '$GENERATE 0-3 ${0,200000000} A 192.0.2.1\n'.repeat(5), /a width must be at most 255/],
    ['a count bomb', COUNT_BOMB, /the file holds more than 200000 records/],
  ] as const) {
    it(`${what}: 400 on every import path, small, and the process and /healthz live`, async () => {
      await expectRefused(await call('POST', '/api/v1/domains/bomb.test/zone?dry_run=true', bomb), message);
      await expectRefused(await call('POST', '/api/v1/domains/bomb.test/zone', bomb), message);
      await expectRefused(await call('POST', '/api/v1/domains/bomb.test/zone?mode=merge', bomb), message);
      await expectRefused(await call('POST', '/api/v1/domains', { name: `new-${bomb.length}.test`, zone_file: bomb }), message);
      const pdns = await call('POST', '/api/v1/servers/localhost/zones', { name: `pdns-${bomb.length}.test.`, kind: 'Native', zone: bomb });
      expect(pdns.status).toBe(422);
      expect((await pdns.text()).length).toBeLessThan(16_384);
      // A token scoped to _acme-challenge TXT gets its answer as quickly: the file is bounded for anyone.
      const acme = ((await (await call('POST', '/api/v1/tokens', { label: 'acme', scope: { names: ['_acme-challenge'], types: ['TXT'] } })).json()) as { token: string }).token;
      const scoped = await fetch(`${server.url}/api/v1/domains/bomb.test/zone?dry_run=true`, { method: 'POST', headers: { authorization: `Bearer ${acme}`, 'content-type': 'text/dns' }, body: bomb });
      await expectRefused(scoped, message);
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      // Nothing was applied, and no zone was made.
      const records = (await (await call('GET', '/api/v1/domains/bomb.test/records')).json()) as unknown[];
      expect(records).toHaveLength(2);
      expect((await call('GET', `/api/v1/domains/new-${bomb.length}.test`)).status).toBe(404);
    });
  }

  it('a big legitimate import (150,000 records) is applied while /healthz keeps answering', async () => {
    const text = Array.from({ length: 150_000 }, (_, i) => `h${i} 300 IN A 198.51.100.${i % 250}`).join('\n');
    let answered = 0;
    let failed = 0;
    let done = false;
    const probe = (async () => {
      while (!done) {
        const res = await fetch(`${server.url}/healthz`).catch(() => null);
        if (res?.status === 200) answered++;
        else failed++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const res = await call('POST', '/api/v1/domains/bomb.test/zone?mode=merge', text);
    done = true;
    await probe;
    expect(res.status, (await res.clone().text()).slice(0, 300)).toBe(200);
    expect(((await res.json()) as { change: { added_count: number } }).change.added_count).toBe(150_000);
    expect(failed).toBe(0);
    expect(answered).toBeGreaterThan(3);
  }, 120_000);
});
