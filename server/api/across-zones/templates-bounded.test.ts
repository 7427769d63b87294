/**
 * One request's work is bounded: a template apply (and its preview) counts the records it would
 * build before building any, at most MAX_RECORDS_PER_ZONE in each zone and in the whole request;
 * a zone made from a template and a bulk PATCH alike. While it works the event loop keeps turning
 * (/healthz answers in the middle of its transaction), and a client that goes away stops it with
 * nothing written. The app is served on a real socket here: only real I/O shows whether the loop turns.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttp, stopHttp } from '../../http/http-server';
import type { Repos } from '../../store/types';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { batchJson, batchView } from './templates';

const MAX = 6_000;
let t: TestApp;
let alice: string;
let url: string;
let stop: () => Promise<void>;

/** Transactions as they run: each one's start and end, in order (the preview of an apply is the first, its write the second). */
const transactions = {
  started: 0,
  open: false,
  onStart: undefined as undefined | ((n: number) => void),
  ended: [] as Array<() => void>,
};

beforeAll(async () => {
  t = await createTestApp({ MAX_RECORDS_PER_ZONE: String(MAX), HOST: '127.0.0.1', PORT: '0' });
  alice = await t.user('alice');
  for (const name of ['a.example', 'b.example', 'full.example', 'live.example', 'gone.example'])
    expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name } })).status).toBe(201);
  const store = t.forge;
  const run = store.transaction.bind(store);
  store.transaction = (<T>(fn: (tx: Repos) => Promise<T>) =>
    run(async (tx) => {
      transactions.open = true;
      transactions.onStart?.(++transactions.started);
      try {
        return await fn(tx);
      } finally {
        transactions.open = false;
        for (const done of transactions.ended.splice(0)) done();
      }
    })) as typeof store.transaction;
  const http = await startHttp((req, env) => t.fetch(req, env), t.config);
  const address = http.server.address() as AddressInfo;
  url = `http://127.0.0.1:${address.port}`;
  stop = () => stopHttp(http.server, 1000);
});
afterAll(async () => {
  await stop();
  await t.close();
});

/** A template of `names` RRsets of `per` records each (A records, or long TXT ones that cost more to write). */
async function template(name: string, names: number, per: number, kind: 'A' | 'TXT' = 'A'): Promise<number> {
  const content = (i: number, j: number) => (kind === 'A' ? `10.${(i >> 8) & 255}.${i & 255}.${j + 1}` : `"${'lorem ipsum dolor sit amet '.repeat(8)}${i}-${j}"`);
  const rrsets = Array.from({ length: names }, (_, i) => ({ name: `h${i}`, record_type: kind, ttl: 300, records: Array.from({ length: per }, (_, j) => content(i, j)) }));
  const res = await t.request('POST', '/api/v1/templates', { token: alice, body: { name, rrsets } });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

/** What a user sees of a zone: its serial, how many records and how many change sets. */
async function seen(zone: string) {
  const z = await t.request('GET', `/api/v1/domains/${zone}`, { token: alice });
  const records = await t.request('GET', `/api/v1/domains/${zone}/records?per_page=1`, { token: alice });
  const changes = await t.request('GET', `/api/v1/domains/${zone}/changes?per_page=1`, { token: alice });
  return { serial: (await z.json()).serial_number, records: records.headers.get('x-total-count'), changes: changes.headers.get('x-total-count') };
}

const fieldsOf = async (res: Response) => (await res.json()).error.fields as Record<string, string>;

describe('the work of a request is counted before it is built', () => {
  it('refuses an apply over MAX_RECORDS_PER_ZONE in all before any zone is built or locked, preview or not', async () => {
    // 3,500 records, their addresses a variable: a build would fail on the missing variable, so the answer shows what ran first.
    const rrsets = Array.from({ length: 350 }, (_, i) => ({ name: `h${i}`, record_type: 'A', records: Array.from({ length: 10 }, (_, j) => `{net}.${i & 255}.${j + 1}`) }));
    const res = await t.request('POST', '/api/v1/templates', { token: alice, body: { name: 'thirty-five-hundred', rrsets } });
    expect(res.status).toBe(201);
    const id = (await res.json()).id;
    const before = [await seen('a.example'), await seen('b.example')];
    const opened = transactions.started;
    for (const dry of ['?dry_run=true', '']) {
      const over = await t.request('POST', `/api/v1/templates/${id}/apply${dry}`, { token: alice, body: { zones: ['a.example', 'b.example'] } });
      expect(over.status).toBe(400);
      const fields = await fieldsOf(over);
      expect(Object.keys(fields)).toEqual(['zones']);
      expect(fields.zones).toContain('7000 records');
      expect(fields.zones).toContain(`at most ${MAX} (MAX_RECORDS_PER_ZONE)`);
    }
    // No preview ran: not one transaction was opened, so no zone was locked, built or written.
    expect(transactions.started).toBe(opened);
    expect([await seen('a.example'), await seen('b.example')]).toEqual(before);
    // One zone at a time fits.
    expect((await t.request('POST', `/api/v1/templates/${id}/apply?dry_run=true`, { token: alice, body: { zones: ['a.example'], variables: { net: '10.1' } } })).status).toBe(200);
  });

  it('counts in replace mode the records the apply removes too', async () => {
    const big = await template('three-thousand', 300, 10);
    expect((await t.request('POST', `/api/v1/templates/${big}/apply`, { token: alice, body: { zones: ['b.example'] } })).status).toBe(200);
    const small = await template('twenty-five-hundred', 250, 10);
    // Merge: 2,500 + 2,500 builds; replace also removes b.example's 3,002.
    expect((await t.request('POST', `/api/v1/templates/${small}/apply?dry_run=true`, { token: alice, body: { zones: ['a.example', 'b.example'] } })).status).toBe(200);
    const replace = await t.request('POST', `/api/v1/templates/${small}/apply?dry_run=true`, { token: alice, body: { zones: ['a.example', 'b.example'], mode: 'replace' } });
    expect(replace.status).toBe(400);
    expect((await fieldsOf(replace)).zones).toContain('replaces');
  });

  it('writes a big answer in pieces that make the same JSON as in one go', async () => {
    const id = (await (await t.request('GET', '/api/v1/templates?per_page=100', { token: alice })).json()).find((x: { name: string }) => x.name === 'three-thousand').id;
    const user = (await t.services.accounts.authenticate(alice))!.user;
    const result = await t.services.templates.apply(
      { userId: user.id },
      id,
      { zones: ['a.example', 'live.example'] },
      { source: 'api', actor: { username: 'alice', userId: user.id, credential: 'test' }, dryRun: true },
    );
    expect(result.zones.map((z) => z.change.added.length)).toEqual([3000, 3000]);
    expect(JSON.parse(await batchJson(result))).toEqual(JSON.parse(JSON.stringify(batchView(result))));
  });

  it('compares at most MAX_RECORDS_PER_ZONE records when listing a template’s zones, and says which it did not', async () => {
    const id = await template('listed', 250, 10);
    for (const name of ['c1.example', 'c2.example', 'c3.example']) {
      expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name } })).status).toBe(201);
      // One request per zone: together they would build more than one request may.
      expect((await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body: { zones: [name] } })).status).toBe(200);
    }
    const listed = (await (await t.request('GET', `/api/v1/templates/${id}/zones`, { token: alice })).json()) as Array<{ zone: string; drifted: boolean | null; problem?: string }>;
    expect(listed.map((z) => [z.zone, z.drifted])).toEqual([
      ['c1.example', false],
      ['c2.example', false],
      ['c3.example', null],
    ]);
    expect(listed[2]!.problem).toContain('GET /domains/c3.example/template');
    const one = await (await t.request('GET', '/api/v1/domains/c3.example/template', { token: alice })).json();
    expect(one.drifted).toBe(false);
  });

  it('refuses a template larger than a zone may hold at apply and at zone creation, saved when the limit was higher', async () => {
    const at = new Date().toISOString();
    const user = (await t.services.accounts.authenticate(alice))!.user;
    const rrsets = Array.from({ length: 650 }, (_, i) => ({ name: `h${i}`, record_type: 'A', ttl: 300, records: Array.from({ length: 10 }, (_, j) => `10.0.${i & 255}.${j + 1}`) }));
    const old = await t.forge.templates.insert({ user_id: user.id, team_id: null, name: 'from-before', description: '', rrsets, created_at: at, updated_at: at });
    const apply = await t.request('POST', `/api/v1/templates/${old.id}/apply?dry_run=true`, { token: alice, body: { zones: ['a.example'] } });
    expect(apply.status).toBe(400);
    expect((await fieldsOf(apply)).zones).toContain('6500 records, more than one zone may hold');
    const create = await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'new.example', template: old.id } });
    expect(create.status).toBe(400);
    expect(Object.keys(await fieldsOf(create))).toEqual(['template']);
    expect((await t.request('GET', '/api/v1/domains/new.example', { token: alice })).status).toBe(404);
  });

  it('refuses a PATCH listing more records than a zone may hold, before checking any', async () => {
    const before = await seen('a.example');
    const records = (k: number) => Array.from({ length: MAX / 2 + 1 }, (_, i) => `"${k}-${i}"`);
    const rrsets = [
      { name: 'big', record_type: 'TXT', changetype: 'REPLACE', records: records(1) },
      { name: 'bigger', record_type: 'TXT', changetype: 'REPLACE', records: records(2) },
      { name: 'x', record_type: 'NOPE', changetype: 'REPLACE', records: ['1'] },
    ];
    const res = await t.request('PATCH', '/api/v1/domains/a.example/rrsets', { token: alice, body: { rrsets } });
    expect(res.status).toBe(400);
    expect(Object.keys(await fieldsOf(res))).toEqual(['rrsets']);
    expect(await seen('a.example')).toEqual(before);
  });

  it('holds a zone to MAX_RECORDS_PER_ZONE with what an apply adds, writing nothing', async () => {
    const filler = await template('five-thousand', 500, 10);
    expect((await t.request('POST', `/api/v1/templates/${filler}/apply`, { token: alice, body: { zones: ['full.example'] } })).status).toBe(200);
    const more = await template('one-thousand', 100, 10, 'TXT');
    const before = await seen('full.example');
    const res = await t.request('POST', `/api/v1/templates/${more}/apply`, { token: alice, body: { zones: ['full.example'] } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toContain('MAX_RECORDS_PER_ZONE');
    expect(await seen('full.example')).toEqual(before);
  });
});

describe('long work lets the service answer, and stops when its client goes', () => {
  it('answers /healthz in the middle of an apply’s preview and of its write', async () => {
    // 4,000 long TXT records: on the code before, one stretch with no turn of the event loop.
    const id = await template('liveness', 400, 10, 'TXT');
    const answeredInside: boolean[] = [];
    const probes: Promise<void>[] = [];
    const base = transactions.started;
    transactions.onStart = (n) => {
      if (n - base > 2) return;
      // Asked once the transaction has begun: answered while it is still open, or only after it.
      probes.push(
        fetch(`${url}/healthz`).then(async (res) => {
          answeredInside.push(transactions.open);
          expect(await res.json()).toEqual({ status: 'ok' });
        }),
      );
    };
    try {
      const res = await fetch(`${url}/api/v1/templates/${id}/apply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ zones: ['live.example'] }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      await Promise.all(probes);
    } finally {
      transactions.onStart = undefined;
    }
    // One probe in the preview's transaction, one in the write's; each answered before its transaction ended.
    expect(answeredInside).toEqual([true, true]);
    expect((await seen('live.example')).records).toBe('4002');
  });

  it('writes nothing when the client goes away during the write', async () => {
    const id = await template('abandoned', 300, 10, 'TXT');
    const before = await seen('gone.example');
    const client = new AbortController();
    const base = transactions.started;
    const writeEnded = new Promise<void>((resolve) => {
      transactions.onStart = (n) => {
        // The second transaction is the write, after the preview: the client leaves as it begins.
        if (n - base !== 2) return;
        transactions.ended.push(resolve);
        client.abort();
      };
    });
    try {
      const answer = fetch(`${url}/api/v1/templates/${id}/apply`, {
        method: 'POST',
        signal: client.signal,
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ zones: ['gone.example'] }),
      });
      await expect(answer).rejects.toThrow(/abort/i);
      await writeEnded;
    } finally {
      transactions.onStart = undefined;
    }
    expect(await seen('gone.example')).toEqual(before);
    // The zone still takes the same apply from a client that waits for it.
    expect((await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body: { zones: ['gone.example'] } })).status).toBe(200);
    expect((await seen('gone.example')).records).toBe('3002');
  });
});
