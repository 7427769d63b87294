/** The TSIG keys API: the secret shown once, lists without secrets, names taken, input errors, isolation, revocation. */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
});
afterEach(() => t.close());

async function create(body: unknown, token = alice) {
  const res = await t.request('POST', '/api/v1/tsig-keys', { token, body });
  return { res, body: await res.json() };
}

const list = async (token = alice) => (await t.request('GET', '/api/v1/tsig-keys', { token })).json();
const BASE64_32 = /^[A-Za-z0-9+/]{43}=$/;

describe('POST /tsig-keys', () => {
  it('answers 201 with a random 256-bit secret once, and the -y argument for nsupdate and dig', async () => {
    const { res, body } = await create({ name: 'ACME-Key.' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      name: 'acme-key',
      algorithm: 'hmac-sha256',
      scope: {},
      created_at: expect.any(String),
      secret: expect.stringMatching(BASE64_32),
      nsupdate: `hmac-sha256:acme-key:${body.secret}`,
    });
    expect(Buffer.from(body.secret, 'base64')).toHaveLength(32);
    const again = await create({ name: 'other-key' });
    expect(again.body.secret).not.toBe(body.secret);
  });

  it('takes an algorithm, a secret brought along, and a scope', async () => {
    const secret = Buffer.alloc(64, 9).toString('base64');
    const { res, body } = await create({ name: 'xfr.example.com', algorithm: 'HMAC-SHA512', secret, scope: { zones: ['example.com'], read_only: true } });
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ name: 'xfr.example.com', algorithm: 'hmac-sha512', secret, scope: { zones: ['example.com'], read_only: true } });
  });

  it('answers 409 for a name taken, by anyone', async () => {
    expect((await create({ name: 'shared' })).res.status).toBe(201);
    for (const token of [alice, bob]) {
      const { res, body } = await create({ name: 'Shared' }, token);
      expect(res.status).toBe(409);
      expect(body.error).toMatchObject({ status: 409, code: 'conflict', fields: { name: 'is already taken' } });
    }
  });

  it.each([
    [{}, 'name', 'is required'],
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 'has space' }, 'name', expect.stringMatching(/may contain only letters, digits, hyphens and underscores/)],
    [{ name: 'a'.repeat(64) }, 'name', expect.stringMatching(/longer than 63/)],
    [{ name: 7 }, 'name', 'must be a key name such as acme-key'],
    [{ name: 'k', algorithm: 'hmac-md5' }, 'algorithm', 'must be one of hmac-sha256, hmac-sha1, hmac-sha224, hmac-sha384, hmac-sha512'],
    [{ name: 'k', secret: 'not base64!' }, 'secret', 'must be base64, as tsig-keygen and keymgr print it'],
    [{ name: 'k', secret: 'c2hvcnQ=' }, 'secret', 'must decode to 16–512 octets'],
    [{ name: 'k', scope: { zones: ['nope'] } }, 'scope.zones.0', 'must have at least two labels, like example.com'],
    [{ name: 'k', scope: { names: ['x.*.y'] } }, 'scope.names.0', expect.stringMatching(/first or last label/)],
    [{ name: 'k', nsupdate: 'x' }, 'nsupdate', 'is not a known field'],
    [{ name: 'k', created_at: '2020-01-01T00:00:00Z' }, 'created_at', 'is read-only'],
  ])('answers 400 naming the field for %j', async (input, field, message) => {
    const { res, body } = await create(input);
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ status: 400, code: 'invalid_field', fields: { [field]: message } });
    expect(await list()).toEqual([]);
  });

  it('names every bad field at once', async () => {
    const { body } = await create({ name: 'bad name', algorithm: 'md5', scope: { types: ['BOGUS'] } });
    expect(Object.keys(body.error.fields).sort()).toEqual(['algorithm', 'name', 'scope.types.0']);
  });
});

describe('GET /tsig-keys', () => {
  it("lists the caller's own keys, oldest first, never a secret, paged like the other lists", async () => {
    const a = await create({ name: 'one', scope: { types: ['TXT'] } });
    await create({ name: 'two' });
    await create({ name: 'bobs' }, bob);
    const res = await t.request('GET', '/api/v1/tsig-keys?per_page=1&page=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="prev"');
    expect(await res.json()).toEqual([{ name: 'two', algorithm: 'hmac-sha256', scope: {}, created_at: expect.any(String) }]);
    const text = await (await t.request('GET', '/api/v1/tsig-keys')).text();
    expect(text).not.toContain(a.body.secret);
    expect(JSON.parse(text).map((k: { name: string }) => k.name)).toEqual(['one', 'two']);
    expect(JSON.parse(text)[0].scope).toEqual({ types: ['TXT'] });
  });
});

describe('DELETE /tsig-keys/:name', () => {
  it('revokes the key and answers with it; a second time is 404', async () => {
    await create({ name: 'doomed' });
    const res = await t.request('DELETE', '/api/v1/tsig-keys/DOOMED');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'doomed', algorithm: 'hmac-sha256', scope: {}, created_at: expect.any(String) });
    expect(await list()).toEqual([]);
    expect((await t.request('DELETE', '/api/v1/tsig-keys/doomed')).status).toBe(404);
  });

  it("answers 404 for another user's key, exactly as for a missing one, and leaves it", async () => {
    await create({ name: 'bobs-key' }, bob);
    for (const name of ['bobs-key', 'missing', 'not a name', '%00']) {
      const res = await t.request('DELETE', `/api/v1/tsig-keys/${encodeURIComponent(name)}`);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({ status: 404, code: 'not_found', message: `no TSIG key named ${name}` });
    }
    expect((await list(bob)).map((k: { name: string }) => k.name)).toEqual(['bobs-key']);
  });

  it('random bodies and names only ever get 2xx or 4xx with the error body', async () => {
    await create({ name: 'bobs-keeps' }, bob);
    const body = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ name: fc.string(), algorithm: fc.string(), secret: fc.string(), scope: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(body, fc.oneof(fc.string(), fc.constant('bobs-keeps')), async (b, name) => {
        for (const res of [await t.request('POST', '/api/v1/tsig-keys', { body: b }), await t.request('DELETE', `/api/v1/tsig-keys/${encodeURIComponent(name)}`)]) {
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect((await res.json()).error).toMatchObject({ status: res.status, code: expect.any(String) });
        }
      }),
      { numRuns: 100 },
    );
    expect((await list(bob)).map((k: { name: string }) => k.name)).toEqual(['bobs-keeps']);
  });
});

it('documents the endpoints in the OpenAPI document', async () => {
  const doc = await (await t.request('GET', '/api/v1/openapi.json', { token: null })).json();
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/tsig-keys', '/tsig-keys/{name}']));
  expect(doc.components.schemas.Scope.properties).toHaveProperty('allowed_ips');
  expect(JSON.stringify(doc.components.schemas.TsigKeyCreated)).toContain('"secret"');
});
