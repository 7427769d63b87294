/** A zone's master_tsig_key_ids and slave_tsig_key_ids: keys of the user, in PowerDNS's words when not. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../testing/pdns-harness';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
  expect((await h.json('POST', ZONES, { name: 'keys.example.', kind: 'Native' })).status).toBe(201);
  expect((await h.json('POST', '/api/v1/servers/localhost/tsigkeys', { name: 'xfr', algorithm: 'hmac-sha256' })).status).toBe(201);
});
afterAll(() => h.t.close());

const put = (body: unknown) => h.json('PUT', `${ZONES}/keys.example.`, body);

describe('TSIG key ids of a zone', () => {
  it('a key the user does not have: 422 as PowerDNS words it, for either list and on creation', async () => {
    for (const field of ['master_tsig_key_ids', 'slave_tsig_key_ids']) {
      expect(await put({ [field]: ['nokey.'] })).toEqual({ status: 422, body: { error: "A TSIG key with the name 'nokey' does not exist" } });
    }
    const made = await h.json('POST', ZONES, { name: 'k2.example.', kind: 'Native', master_tsig_key_ids: ['nokey'] });
    expect(made).toEqual({ status: 422, body: { error: "A TSIG key with the name 'nokey' does not exist" } });
  });

  it('a key of the user may transfer the zone already: accepted; a secondary’s key is 422, zonedeck fetches no zone', async () => {
    expect(await put({ master_tsig_key_ids: ['xfr.'] })).toEqual({ status: 204, body: null });
    const res = await put({ slave_tsig_key_ids: ['xfr.'] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^slave_tsig_key_ids: /);
  });

  it('a key whose scope leaves the zone out could not transfer it: 422', async () => {
    const alice = (await h.t.services.store.users.byUsername('alice'))!;
    await h.t.services.tsigKeys.create(alice.id, { name: 'elsewhere', algorithm: 'hmac-sha256', scope: { zones: ['other.example'] } });
    expect((await put({ master_tsig_key_ids: ['elsewhere.'] })).body.error).toMatch(/scope of the TSIG key 'elsewhere' does not include keys\.example/);
  });
});
