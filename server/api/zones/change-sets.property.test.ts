/**
 * The undo property of change sets, on SQLite and PostgreSQL: any sequence of
 * writes — RRset PATCHes, record CRUD, SOA changes — followed by reverting each of its change
 * sets, newest first, leaves the records and SOA fields exactly as they started, and every
 * change set along the way (reverts too) moves the serial strictly up.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.user('alice');
});
afterAll(() => t.close());

const names = ['@', 'www', 'mail', 'a.b', '*.dev'];
const contents: Record<string, string[]> = {
  A: ['192.0.2.1', '192.0.2.2', '192.0.2.3'],
  TXT: ['one', 'two words', 'v=spf1 -all'],
  MX: ['10 mx1.example.net', '20 mx2.example.net'],
  CNAME: ['target.example.net', 'other.example.net'],
};
const types = Object.keys(contents);

const rrsetChange = fc.record({
  name: fc.constantFrom(...names),
  record_type: fc.constantFrom(...types),
  ttl: fc.option(fc.constantFrom('60', '300', '3600'), { nil: undefined }),
  changetype: fc.constantFrom('REPLACE', 'DELETE', 'ADD', 'REMOVE'),
  pick: fc.array(fc.nat(2), { maxLength: 3 }),
});

const op = fc.oneof(
  { weight: 4, arbitrary: fc.array(rrsetChange, { minLength: 1, maxLength: 4 }).map((rrsets) => ({ kind: 'patch' as const, rrsets })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('soa' as const), minimum_ttl: fc.constantFrom(60, 300, 3600), refresh_interval: fc.constantFrom(3600, 7200, 10800) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('create' as const), name: fc.constantFrom(...names), n: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), n: fc.nat(20), content: fc.constantFrom(...contents.A!), ttl: fc.constantFrom('60', '120') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), n: fc.nat(20) }) },
);

let zoneNo = 0;

async function state(zone: string) {
  const recs = (await (await t.request('GET', `/api/v1/domains/${zone}/records?per_page=500`)).json()) as { name: string; record_type: string; ttl: string; content: string }[];
  const d = await (await t.request('GET', `/api/v1/domains/${zone}`)).json();
  return {
    records: recs.map((r) => `${r.name} ${r.ttl} ${r.record_type} ${r.content}`).sort(),
    soa: [d.refresh_interval, d.retry_interval, d.expire_interval, d.minimum_ttl, d.dnssec_enabled],
  };
}

describe('change sets', () => {
  it('reverting every change set newest first restores the zone exactly; serials only rise', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const zone = `p${zoneNo++}.example`;
        const Z = `/api/v1/domains/${zone}`;
        expect((await t.request('POST', '/api/v1/domains', { body: { name: zone } })).status).toBe(201);
        const start = await state(zone);
        const applied: number[] = [];
        const serials: number[] = [(await (await t.request('GET', Z)).json()).serial_number];
        const latest = async () => ((await (await t.request('GET', `${Z}/changes?per_page=1`)).json())[0]?.id as number) ?? 0;
        /** Notes the change set a write made, if it made one, and the serial it left. */
        const track = async (write: () => Promise<Response | undefined>) => {
          const before = await latest();
          const res = await write();
          if (res) expect(res.status).toBeLessThan(500);
          const after = await latest();
          if (after !== before) applied.push(after);
          const s = (await (await t.request('GET', Z)).json()).serial_number;
          if (s !== serials.at(-1)) serials.push(s);
          return res;
        };
        for (const o of ops) {
          await track(async () => {
            if (o.kind === 'patch') {
              const rrsets = o.rrsets.map(({ pick, ...r }) => ({
                ...r,
                records: r.changetype === 'DELETE' ? undefined : pick.map((i) => contents[r.record_type]![i % contents[r.record_type]!.length]!),
              }));
              return t.request('PATCH', `${Z}/rrsets`, { body: { rrsets } });
            }
            if (o.kind === 'soa') return t.request('PUT', Z, { body: { minimum_ttl: o.minimum_ttl, refresh_interval: o.refresh_interval } });
            if (o.kind === 'create') return t.request('POST', `${Z}/records`, { body: { name: o.name, record_type: 'A', content: contents.A![o.n]! } });
            const own = ((await (await t.request('GET', `${Z}/records?per_page=500`)).json()) as { id: number; record_type: string }[]).filter((r) => r.record_type !== 'NS');
            if (own.length === 0) return undefined;
            const id = own[o.n % own.length]!.id;
            if (o.kind === 'edit') return t.request('PUT', `${Z}/records/${id}`, { body: { content: o.content, ttl: o.ttl } });
            return t.request('DELETE', `${Z}/records/${id}`);
          });
        }
        for (const id of [...applied].reverse()) {
          const res = await track(() => t.request('POST', `${Z}/changes/${id}/revert`));
          expect(res!.status, JSON.stringify(await res!.clone().json())).toBe(200);
        }
        expect(await state(zone)).toEqual(start);
        for (let i = 1; i < serials.length; i++) expect(serials[i]!).toBeGreaterThan(serials[i - 1]!);
        // The history is continuous: each change set starts where the previous one ended.
        const history = (await (await t.request('GET', `${Z}/changes?per_page=500`)).json()) as { serial_before: number; serial_after: number }[];
        for (let i = 0; i + 1 < history.length; i++) expect(history[i]!.serial_before).toBe(history[i + 1]!.serial_after);
      }),
      { numRuns: 40 },
    );
    // 40 zones of up to 10 changes and their reverts: on PostgreSQL on a busy machine this takes longer than the default.
  }, 120_000);
});
