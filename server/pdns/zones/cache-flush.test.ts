/** PUT …/cache/flush: nothing to flush in zonedeck, answered as PowerDNS answers a flush; the domain checked as there. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, type PdnsHarness } from '../../testing/pdns-harness';

const FLUSH = '/api/v1/servers/localhost/cache/flush';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());

describe('cache flush', () => {
  it('an absolute name, the root too: {"count": 0, "result": "Flushed cache."}', async () => {
    for (const domain of ['example.org.', '.']) {
      expect(await h.json('PUT', `${FLUSH}?domain=${domain}`)).toEqual({ status: 200, body: { count: 0, result: 'Flushed cache.' } });
    }
  });

  it('422 without a domain, or with one not absolute', async () => {
    expect(await h.json('PUT', FLUSH)).toEqual({ status: 422, body: { error: "DNS Name '' is not canonical" } });
    expect(await h.json('PUT', `${FLUSH}?domain=bar`)).toEqual({ status: 422, body: { error: "DNS Name 'bar' is not canonical" } });
  });

  it('a read-only token may flush: it changes nothing', async () => {
    const alice = (await h.t.services.store.users.byUsername('alice'))!;
    const { token } = await h.t.services.accounts.createToken(alice.id, 'ro', null, { read_only: true });
    expect((await h.json('PUT', `${FLUSH}?domain=example.org.`, undefined, { key: token })).status).toBe(200);
  });
});
