/**
 * A change is prepared — parsed, canonicalized, bounded, grouped — before
 * the write lock, and only applied to the draft inside it. What a user sees on PostgreSQL, where
 * other nodes' reads go on while a zone is locked: while another write holds the zone, a request
 * whose content is wrong is answered 400 at once (it never queues behind the lock), and a good one
 * waits for the lock and then lands. On SQLite every request waits for an open transaction (one
 * connection), so there what preparing first buys is a shorter hold; the good change is tested on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let token: string;
const ZONE = 'held.example';

beforeAll(async () => {
  t = await createTestApp();
  token = await t.user('erin');
  expect((await t.request('POST', '/api/v1/domains', { token, body: { name: ZONE } })).status).toBe(201);
});
afterAll(() => t.close());

/** Holds the zone's write lock (another writer mid-transaction) until the returned release is called. */
async function holdLock(): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const locked = new Promise<void>((r) => (held = r));
  const done = t.forge.transaction(async (tx) => {
    await tx.domains.lock((await tx.domains.byName(ZONE))!);
    held();
    await gate;
  });
  await locked;
  return async () => {
    release();
    await done;
  };
}

const pdnsPatch = (rrsets: unknown[]) => t.request('PATCH', `/api/v1/servers/localhost/zones/${ZONE}.`, { token: null, headers: { 'X-API-Key': token }, body: { rrsets } });

describe('a change is prepared before the write lock', () => {
  it.runIf(process.env.ZONEDECK_TEST_POSTGRES).each([
    ['a record with bad content', () => t.request('POST', `/api/v1/domains/${ZONE}/records`, { token, body: { name: 'www', record_type: 'A', content: '300.1.2.3' } }), 'content'],
    ['a record whose TTL is out of bounds', () => t.request('POST', `/api/v1/domains/${ZONE}/records`, { token, body: { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: -5 } }), 'ttl'],
    [
      'an RRset PATCH with one bad record among many',
      () =>
        t.request('PATCH', `/api/v1/domains/${ZONE}/rrsets`, {
          token,
          body: {
            rrsets: [
              ...Array.from({ length: 200 }, (_, i) => ({ name: `h${i}`, record_type: 'A', changetype: 'REPLACE', records: [`192.0.2.${i % 250}`] })),
              { name: 'bad', record_type: 'MX', changetype: 'REPLACE', records: ['no-priority'] },
            ],
          },
        }),
      'rrsets.200.records.0',
    ],
    ['a PowerDNS PATCH with bad content', () => pdnsPatch([{ name: `x.${ZONE}.`, type: 'AAAA', ttl: 300, changetype: 'REPLACE', records: [{ content: '192.0.2.1', disabled: false }] }]), null],
    [
      'a zone file with a bad line',
      () => t.request('POST', `/api/v1/domains/${ZONE}/zone`, { token, raw: 'www 300 IN A 192.0.2.1\nmail 300 IN MX mail\n', headers: { 'content-type': 'text/dns' } }),
      'line 2',
    ],
  ])('%s is refused at once while another write holds the zone', async (_what, send, field) => {
    const release = await holdLock();
    try {
      // The lock is released only after the answer: a refusal that queued behind it never comes,
      // and the test fails on its timeout.
      const answer = await send();
      if (field) {
        expect(answer.status).toBe(400);
        const body = (await answer.json()) as { error: { status: number; code: string; fields?: Record<string, string> } };
        expect(body.error).toMatchObject({ status: 400, code: 'invalid_field' });
        expect(Object.keys(body.error.fields ?? {})).toContain(field);
      } else {
        // The PowerDNS API's refusal: 422 with its one-line error naming the RRset.
        expect(answer.status).toBe(422);
        expect(await answer.json()).toEqual({ error: expect.stringMatching(/^RRset x\.held\.example\. IN AAAA: /) });
      }
    } finally {
      await release();
    }
  });

  it('a good change waits for the lock, then lands', async () => {
    const before = ((await (await t.request('GET', `/api/v1/domains/${ZONE}`, { token })).json()) as { serial_number: number }).serial_number;
    const release = await holdLock();
    let answered = false;
    const pending = t.request('POST', `/api/v1/domains/${ZONE}/records`, { token, body: { name: 'ok', record_type: 'A', content: '192.0.2.7' } }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    await release();
    expect((await pending).ok).toBe(true);
    const after = ((await (await t.request('GET', `/api/v1/domains/${ZONE}`, { token })).json()) as { serial_number: number }).serial_number;
    expect(after).toBeGreaterThan(before);
  });
});
