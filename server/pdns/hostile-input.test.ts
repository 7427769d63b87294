/** Random bodies, ids and contents thrown at the PowerDNS API: only 2xx, or 4xx with `{"error": "…"}`; never a 5xx. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../testing/pdns-harness';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
  expect((await h.json('POST', ZONES, { name: 'fuzz.example.', kind: 'Native' })).status).toBe(201);
});
afterAll(() => h.t.close());

async function expectClean(res: Response): Promise<void> {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) expect(await res.json()).toEqual({ error: expect.any(String) });
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '.', '..', '@', '*.fuzz.example.', 'fuzz.example.', 'www.fuzz.example', 'a'.repeat(300), '"', '"unclosed', '\\', '\\999', '💥.fuzz.example.', '=2E', '%ZZ'),
);
const type = fc.oneof(fc.constantFrom('A', 'AAAA', 'TXT', 'CNAME', 'MX', 'NS', 'SRV', 'CAA', 'SOA', 'DS', 'ALIAS', 'LUA', 'ns', 'soa'), fc.string());
const changetype = fc.oneof(fc.constantFrom('REPLACE', 'DELETE', 'EXTEND', 'PRUNE', 'replace'), fc.string());
const ttl = fc.oneof(fc.integer(), fc.double(), fc.constant(2147483648), fc.constant(-1), fc.constant(null));
const record = fc.record(
  { content: fc.oneof(text, fc.constantFrom('192.0.2.1', '"quoted"', '10 mx.fuzz.example.', 'ns1.zonedeck.test.')), disabled: fc.oneof(fc.boolean(), fc.constant(null)) },
  { requiredKeys: [] },
);
const rrset = fc.record({ name: text, type, changetype, ttl, records: fc.array(record, { maxLength: 4 }), comments: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }) }, { requiredKeys: [] });

describe('hostile input', () => {
  it('PATCH with random RRsets', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rrset, { maxLength: 5 }), async (rrsets) => expectClean(await h.call('PATCH', `${ZONES}/fuzz.example.`, { rrsets }))),
      { numRuns: 200 },
    );
  });

  it('arbitrary JSON on every write', async () => {
    const routes = [
      'POST /zones',
      'PUT /zones/fuzz.example.',
      'PATCH /zones/fuzz.example.',
      'PUT /zones/fuzz.example./notify',
      'POST /zones/fuzz.example./cryptokeys',
      'PUT /zones/fuzz.example./cryptokeys/1',
    ];
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(...routes), async (body, route) => {
        const [method, path] = route.split(' ') as [string, string];
        if (method === 'POST' && path === '/zones' && body && typeof body === 'object' && 'name' in body && (body as { name: unknown }).name === 'fuzz.example.') return;
        await expectClean(await h.call(method, `/api/v1/servers/localhost${path}`, body));
      }),
      { numRuns: 200 },
    );
  });

  it('random zones created, random zone ids asked for', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.array(rrset, { maxLength: 3 }), fc.option(fc.string()), async (name, rrsets, zone) => {
        const res = await h.call('POST', ZONES, { name, kind: 'Native', rrsets, ...(zone === null ? {} : { zone }) });
        await expectClean(res);
        if (res.status === 201) await h.call('DELETE', `${ZONES}/${encodeURIComponent(name)}`);
        // A URL cannot carry half a surrogate pair: encode what a client could send.
        const id = encodeURIComponent(Buffer.from(name, 'utf8').toString('utf8'));
        for (const path of [`${ZONES}/${id}`, `${ZONES}/${id}/export`, `${ZONES}/${id}/cryptokeys`, `${ZONES}?zone=${id}`, `${ZONES}/fuzz.example.?rrset_name=${id}&rrset_type=${id}`]) {
          await expectClean(await h.call('GET', path));
        }
      }),
      { numRuns: 150 },
    );
    // The zone the fuzzing worked on is still whole.
    expect((await h.json('GET', `${ZONES}/fuzz.example.?rrsets=false`)).status).toBe(200);
  });
});
