/** Random bodies, names and contents thrown at the API: only 2xx or 4xx with the error body, never 5xx. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'fuzz.example' } });
});
afterAll(() => t.close());

async function expectClean(res: Response): Promise<void> {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) {
    const body = await res.json();
    expect(body.error).toMatchObject({ status: res.status, code: expect.any(String), message: expect.any(String) });
  }
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '@', '*', '.', '..', '-', '_', 'xn--', 'a'.repeat(300), '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '💥.example'),
);
const ttlish = fc.oneof(fc.string(), fc.nat().map(String), fc.integer(), fc.constant(null), fc.constant('2147483648'));

describe('hostile input', () => {
  it('record creation with random fields', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { name: text, record_type: fc.oneof(fc.constantFrom('A', 'AAAA', 'TXT', 'CNAME', 'MX', 'NS', 'SRV', 'CAA', 'PTR', 'SOA'), fc.string()), content: text, ttl: ttlish },
          { requiredKeys: [] },
        ),
        async (body) => expectClean(await t.request('POST', '/api/v1/domains/fuzz.example/records', { body })),
      ),
      { numRuns: 150 },
    );
  });

  it('arbitrary JSON bodies on every write endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 4 }),
        fc.constantFrom('POST /api/v1/domains', 'PUT /api/v1/domains/fuzz.example', 'POST /api/v1/domains/fuzz.example/records', 'PUT /api/v1/domains/fuzz.example/records/1'),
        async (body, route) => {
          const [method, path] = route.split(' ') as [string, string];
          await expectClean(await t.request(method, path, { body }));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('random zone names, record names and query strings', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.string(), async (name, query) => {
        await expectClean(await t.request('POST', '/api/v1/domains', { body: { name } }));
        // A URL cannot carry half a surrogate pair: encode what a client could send.
        const [n, q] = [name, query].map((s) => Buffer.from(s, 'utf8').toString('utf8')) as [string, string];
        await expectClean(await t.request('GET', `/api/v1/domains/${encodeURIComponent(n)}/records?${encodeURIComponent(q)}=${encodeURIComponent(n)}`));
        await expectClean(await t.request('GET', `/api/v1/domains?page=${encodeURIComponent(q)}`));
        await expectClean(await t.request('GET', `/api/v1/domains?search=${encodeURIComponent(n)}`));
      }),
      { numRuns: 100 },
    );
  });

  it('NUL, control characters and unpaired surrogates in every field: a 400 naming it, nothing stored', async () => {
    const hostile = fc.oneof(
      fc.constantFrom('\u0000', 'a\u0000b', '\u0007', 'line\nbreak', '\u007f', '\ud800', 'x\udfff', '\udc00\ud800'),
      fc.tuple(fc.string(), fc.constantFrom('\u0000', '\u001b', '\ud83d'), fc.string()).map(([a, b, c]) => `${a}${b}${c}`),
    );
    const routes: [string, string, string[]][] = [
      ['POST', '/api/v1/domains', ['name']],
      ['POST', '/api/v1/domains/fuzz.example/records', ['name', 'record_type', 'content', 'ttl']],
      ['PUT', '/api/v1/domains/fuzz.example/records/1', ['name', 'record_type', 'content', 'ttl']],
      ['POST', '/api/v1/tokens', ['label']],
    ];
    const valid: Record<string, string> = { name: 'ok.example', record_type: 'TXT', content: 'fine', ttl: '300', label: 'fine' };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.nat(), hostile, async ([method, path, fields], i, bad) => {
        const field = fields[i % fields.length]!;
        const body = Object.fromEntries(fields.map((f) => [f, f === field ? bad : valid[f]]));
        const before = await (await t.request('GET', '/api/v1/domains/fuzz.example/records?per_page=500')).json();
        const res = await t.request(method, path, { body });
        expect(res.status).toBe(400);
        expect(Object.keys((await res.json()).error.fields)).toContain(field);
        expect(await (await t.request('GET', '/api/v1/domains/fuzz.example/records?per_page=500')).json()).toEqual(before);
      }),
      { numRuns: 120 },
    );
  });

  it('random SOA values keep the zone valid', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ refresh_interval: fc.integer(), retry_interval: fc.integer(), expire_interval: fc.integer(), minimum_ttl: fc.integer() }, { requiredKeys: [] }), async (body) => {
        await expectClean(await t.request('PUT', '/api/v1/domains/fuzz.example', { body }));
        const zone = await (await t.request('GET', '/api/v1/domains/fuzz.example')).json();
        expect(zone.retry_interval).toBeLessThanOrEqual(zone.refresh_interval);
        expect(zone.refresh_interval).toBeLessThanOrEqual(zone.expire_interval);
      }),
      { numRuns: 100 },
    );
  });
});
