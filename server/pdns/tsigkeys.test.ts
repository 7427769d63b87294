/**
 * `/servers/localhost/tsigkeys` over zonedeck's TSIG keys: a key made, renamed or given a new secret
 * here signs DNS messages the server accepts and shows in zonedeck's own key list; the secret is
 * answered only when made or sent; scopes, other users' keys, bad input and the quota hold as on
 * `/api/v1/tsig-keys`, with PowerDNS's shapes and the error texts its regression suite reads.
 */
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TsigAlgorithmName } from '../core/tsig-rules';
import { Keyring } from '../dns/tsig/keyring';
import { findTsig, signRequest, TSIG_ERROR_NAMES, verifyRequest, type TsigRecord } from '../dns/tsig/tsig';
import { pdnsHarness, type PdnsHarness } from '../testing/pdns-harness';

const KEYS = '/api/v1/servers/localhost/tsigkeys';
const SECRET = 'fn+BREHMDq0uWA1WbDwaoc2ne3rD973ySJ33ToJTfWY=';
const OTHER_SECRET = 'l36TAJalAys0HeEfSM1rFzSmz9kSwfiBo3HNkL62COs=';

let h: PdnsHarness;
let userId = 0;
beforeAll(async () => {
  h = await pdnsHarness();
  userId = (await h.t.services.store.users.byUsername('alice'))!.id;
});
afterAll(() => h.t.close());

/** What the DNS server answers to a query signed with this key: `ok`, or the TSIG error (BADKEY, BADSIG). */
async function signedQuery(name: string, algorithm: string, secret: string): Promise<string> {
  const keyring = new Keyring(h.t.services.store);
  await keyring.refresh();
  const query = Buffer.from(packet.encode({ id: 7, type: 'query', questions: [{ name: 'example.com', type: 'SOA', class: 'IN' }] }));
  const { message } = signRequest(query, { name, algorithm: algorithm as TsigAlgorithmName, secret: Buffer.from(secret, 'base64') });
  const verdict = verifyRequest(message, findTsig(message) as TsigRecord, (n) => keyring.get(n));
  return verdict.ok ? 'ok' : (TSIG_ERROR_NAMES[verdict.error] ?? `rcode ${verdict.rcode}`);
}

/** zonedeck's own list of the user's keys (name and algorithm). */
const ownList = async () => ((await (await h.t.request('GET', '/api/v1/tsig-keys')).json()) as Array<{ name: string; algorithm: string }>).map((k) => `${k.name} ${k.algorithm}`);

describe('POST, GET, PUT and DELETE as PowerDNS clients use them', () => {
  it('creates a key with a generated secret that signs queries the server accepts, and lists it without the secret', async () => {
    const res = await h.call('POST', KEYS, { name: 'made-key', algorithm: 'hmac-sha256' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const made = await res.json();
    expect(made).toEqual({ name: 'made-key', id: 'made-key.', algorithm: 'hmac-sha256', key: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/), type: 'TSIGKey' });
    expect(await signedQuery('made-key', 'hmac-sha256', made.key)).toBe('ok');
    expect(await ownList()).toContain('made-key hmac-sha256');
    const list = await h.json('GET', KEYS);
    expect(list.body).toContainEqual({ name: 'made-key', id: 'made-key.', algorithm: 'hmac-sha256', key: '', type: 'TSIGKey' });
  });

  it('takes a secret brought along and an algorithm in any case with the trailing dot, answering them as PowerDNS writes them', async () => {
    const res = await h.json('POST', KEYS, { name: 'Brought_Key.', algorithm: 'HMAC-SHA512.', key: SECRET });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'brought_key', id: 'brought=5Fkey.', algorithm: 'hmac-sha512', key: SECRET, type: 'TSIGKey' });
    expect(await signedQuery('brought_key', 'hmac-sha512', SECRET)).toBe('ok');
    // The id is read escaped, percent-encoded or plain.
    for (const id of ['brought=5Fkey.', 'brought%5Fkey.', 'brought_key', 'BROUGHT_KEY.']) {
      expect((await h.json('GET', `${KEYS}/${id}`)).body).toEqual({ name: 'brought_key', id: 'brought=5Fkey.', algorithm: 'hmac-sha512', key: '', type: 'TSIGKey' });
    }
  });

  it('renames a key by PUT: the old id is 404, the new name signs with the same secret, the old name is BADKEY', async () => {
    await h.json('POST', KEYS, { name: 'old-name', algorithm: 'hmac-sha256', key: SECRET });
    const res = await h.json('PUT', `${KEYS}/old-name.`, { name: 'new-name' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'new-name', id: 'new-name.', algorithm: 'hmac-sha256', key: '', type: 'TSIGKey' });
    expect((await h.json('GET', `${KEYS}/old-name.`)).status).toBe(404);
    expect(await signedQuery('new-name', 'hmac-sha256', SECRET)).toBe('ok');
    expect(await signedQuery('old-name', 'hmac-sha256', SECRET)).toBe('BADKEY');
    expect(await ownList()).toContain('new-name hmac-sha256');
    expect(await ownList()).not.toContain('old-name hmac-sha256');
  });

  it('changes the secret and the algorithm by PUT; the answer carries the secret sent, and the old one no longer signs', async () => {
    await h.json('POST', KEYS, { name: 'rolled', algorithm: 'hmac-sha256', key: SECRET });
    const res = await h.call('PUT', `${KEYS}/rolled.`, { key: OTHER_SECRET, algorithm: 'hmac-sha384' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ name: 'rolled', id: 'rolled.', algorithm: 'hmac-sha384', key: OTHER_SECRET, type: 'TSIGKey' });
    expect(await signedQuery('rolled', 'hmac-sha384', OTHER_SECRET)).toBe('ok');
    expect(await signedQuery('rolled', 'hmac-sha384', SECRET)).toBe('BADSIG');
  });

  it('keeps the secret when a client sends back what it read (key "") with another algorithm', async () => {
    await h.json('POST', KEYS, { name: 'read-back', algorithm: 'hmac-sha256', key: SECRET });
    const read = (await h.json('GET', `${KEYS}/read-back.`)).body;
    const res = await h.json('PUT', `${KEYS}/read-back.`, { ...read, algorithm: 'hmac-sha1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ algorithm: 'hmac-sha1', key: '' });
    expect(await signedQuery('read-back', 'hmac-sha1', SECRET)).toBe('ok');
  });

  it('deletes a key with 204: it is gone from both lists and messages signed with it are BADKEY', async () => {
    const made = (await h.json('POST', KEYS, { name: 'short-lived', algorithm: 'hmac-sha256' })).body;
    const res = await h.call('DELETE', `${KEYS}/${made.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await h.json('GET', `${KEYS}/short-lived.`)).body).toEqual({ error: "TSIG key with name 'short-lived' not found" });
    expect(await ownList()).not.toContain('short-lived hmac-sha256');
    expect(await signedQuery('short-lived', 'hmac-sha256', made.key)).toBe('BADKEY');
  });
});

describe('errors, with nothing changed', () => {
  it.each([
    [{ algorithm: 'hmac-sha256' }, 422, /^name: must be a string/],
    [{ name: 'bad name', algorithm: 'hmac-sha256' }, 422, /^name: .*may contain only letters, digits, hyphens and underscores/],
    [{ name: 'bad-algo', algorithm: 'foobar', key: SECRET }, 422, /^algorithm: Unknown TSIG algorithm: foobar: zonedeck signs with hmac-sha256, /],
    // PowerDNS's own answer when it would generate the key (its test_post_wrong_algo): 400.
    [{ name: 'bad-algo', algorithm: 'foobar' }, 400, /^algorithm: Invalid TSIG algorithm: foobar: /],
    [{ name: 'md5-key', algorithm: 'hmac-md5', key: SECRET }, 422, /^algorithm: Unknown TSIG algorithm: hmac-md5: HMAC-MD5 is NOT RECOMMENDED for use \(RFC 8945 §6\)/],
    [{ name: 'bad-b64', algorithm: 'hmac-sha256', key: 'f\u0333oobar1======' }, 422, /^key: TSIG content cannot be base64-decoded: must be base64/],
    [{ name: 'short', algorithm: 'hmac-sha256', key: 'c2hvcnQ=' }, 422, /^key: must decode to 16–512 octets$/],
    [{ name: 'typed', algorithm: 256 }, 422, /^algorithm: must be a string/],
    [{ name: 'both bad', algorithm: 'foobar' }, 422, /^name: .*; algorithm: Invalid TSIG algorithm: foobar/],
  ])('POST %j is %i naming the field', async (body, status, error) => {
    const before = await ownList();
    const res = await h.json('POST', KEYS, body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatch(error);
    expect(await ownList()).toEqual(before);
  });

  it('PUT with a bad algorithm or key is 422 in PowerDNS words, and the key still signs as before', async () => {
    await h.json('POST', KEYS, { name: 'steady', algorithm: 'hmac-sha256', key: SECRET });
    const algo = await h.json('PUT', `${KEYS}/steady.`, { algorithm: 'foobar', name: 'steady-renamed' });
    expect(algo.status).toBe(422);
    expect(algo.body.error).toMatch(/^algorithm: Unknown TSIG algorithm: foobar/);
    const key = await h.json('PUT', `${KEYS}/steady.`, { key: 'f\u0333oobar1======' });
    expect(key.status).toBe(422);
    expect(key.body.error).toMatch(/^key: Can not base64 decode key content: /);
    expect((await h.json('PUT', `${KEYS}/steady.`, { name: 5 })).body.error).toMatch(/^name: must be a string/);
    expect(await signedQuery('steady', 'hmac-sha256', SECRET)).toBe('ok');
    expect((await h.json('GET', `${KEYS}/steady-renamed.`)).status).toBe(404);
  });

  it('a missing key is 404 in PowerDNS words for GET, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await h.json(method, `${KEYS}/idontexist.`, method === 'PUT' ? { algorithm: 'hmac-sha512' } : undefined);
      expect([method, res.status, res.body]).toEqual([method, 404, { error: "TSIG key with name 'idontexist' not found" }]);
    }
    expect((await h.json('GET', `${KEYS}/two-dots..`)).status).toBe(404);
  });

  it('a name taken, by this user or another, is 409; a rename onto it changes neither key', async () => {
    await h.json('POST', KEYS, { name: 'taken-here', algorithm: 'hmac-sha256', key: SECRET });
    const again = await h.json('POST', KEYS, { name: 'taken-here', algorithm: 'hmac-sha256' });
    expect(again).toEqual({ status: 409, body: { error: "A TSIG key with the name 'taken-here' already exists" } });
    const bob = await h.t.user('bob-409');
    expect((await h.json('POST', KEYS, { name: 'bobs-key', algorithm: 'hmac-sha256', key: OTHER_SECRET }, { key: bob })).status).toBe(201);
    expect((await h.json('POST', KEYS, { name: 'BOBS-KEY.', algorithm: 'hmac-sha256' })).status).toBe(409);
    const rename = await h.json('PUT', `${KEYS}/taken-here.`, { name: 'bobs-key' });
    expect(rename).toEqual({ status: 409, body: { error: "A TSIG key with the name 'bobs-key' already exists" } });
    expect(await signedQuery('taken-here', 'hmac-sha256', SECRET)).toBe('ok');
    expect(await signedQuery('bobs-key', 'hmac-sha256', OTHER_SECRET)).toBe('ok');
  });
});

describe('who may see and change keys', () => {
  it("another user's key is not listed and is 404 to GET, PUT and DELETE, exactly like a missing one", async () => {
    const carol = await h.t.user('carol');
    expect((await h.json('POST', KEYS, { name: 'carols-key', algorithm: 'hmac-sha256', key: SECRET }, { key: carol })).status).toBe(201);
    expect((await h.json('GET', KEYS)).body.map((k: { name: string }) => k.name)).not.toContain('carols-key');
    for (const [method, body] of [['GET'], ['PUT', { name: 'stolen' }], ['DELETE']] as const) {
      const res = await h.json(method, `${KEYS}/carols-key.`, body);
      expect([method, res.status, res.body]).toEqual([method, 404, { error: "TSIG key with name 'carols-key' not found" }]);
    }
    expect(await signedQuery('carols-key', 'hmac-sha256', SECRET)).toBe('ok');
  });

  it.each([
    [{ read_only: true }, 'this token is read-only'],
    [{ zones: ['example.com'] }, 'a token with a scope cannot create, change or revoke TSIG keys'],
    [{ names: ['_acme-challenge'], types: ['TXT'] }, 'a token with a scope cannot create, change or revoke TSIG keys'],
  ])('a token scoped %j lists keys but cannot create, change or delete one (403), as on zonedeck’s API', async (scope, message) => {
    await h.json('POST', KEYS, { name: 'guarded', algorithm: 'hmac-sha256', key: SECRET });
    const { token } = await h.t.services.accounts.createToken(userId, 'scoped', null, scope);
    const before = await ownList();
    expect((await h.json('GET', KEYS, undefined, { key: token })).body.map((k: { name: string }) => k.name)).toContain('guarded');
    expect((await h.json('GET', `${KEYS}/guarded.`, undefined, { key: token })).body.key).toBe('');
    for (const [method, path, body] of [
      ['POST', KEYS, { name: 'wider', algorithm: 'hmac-sha256' }],
      ['PUT', `${KEYS}/guarded.`, { key: OTHER_SECRET }],
      ['DELETE', `${KEYS}/guarded.`],
    ] as const) {
      const res = await h.json(method, path, body, { key: token });
      expect([method, res.status, res.body]).toEqual([method, 403, { error: message }]);
    }
    // zonedeck's own API refuses the same token the same way.
    expect((await h.t.request('POST', '/api/v1/tsig-keys', { token, body: { name: 'wider' } })).status).toBe(403);
    expect(await ownList()).toEqual(before);
    expect(await signedQuery('guarded', 'hmac-sha256', SECRET)).toBe('ok');
    await h.call('DELETE', `${KEYS}/guarded.`);
  });
});

describe('MAX_TSIG_KEYS_PER_USER', () => {
  it('refuses a key beyond the quota with 403 naming the limit; renaming a key at the quota still works', async () => {
    const q = await pdnsHarness({ MAX_TSIG_KEYS_PER_USER: '2' });
    try {
      for (const name of ['one', 'two']) expect((await q.json('POST', KEYS, { name: `quota-${name}`, algorithm: 'hmac-sha256' })).status).toBe(201);
      const third = await q.json('POST', KEYS, { name: 'quota-three', algorithm: 'hmac-sha256' });
      expect(third.status).toBe(403);
      expect(third.body.error).toMatch(/MAX_TSIG_KEYS_PER_USER/);
      expect((await q.json('GET', KEYS)).body).toHaveLength(2);
      expect((await q.json('PUT', `${KEYS}/quota-two.`, { name: 'quota-renamed' })).status).toBe(200);
      expect((await q.json('GET', KEYS)).body.map((k: { name: string }) => k.name).sort()).toEqual(['quota-one', 'quota-renamed']);
    } finally {
      await q.t.close();
    }
  });
});
