/**
 * A token's scope holds on the PowerDNS API as on zonedeck's own: zones outside it are not
 * listed and answer 403, a token limited to names and types changes only those RRsets (403,
 * nothing applied, for anything else) and nothing of the zone itself, a read-only token reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScopeInput } from '../core/scope';
import { pdnsHarness, ZONES, type PdnsHarness } from '../testing/pdns-harness';

let h: PdnsHarness;
let userId = 0;
const scoped = async (scope: ScopeInput) => (await h.t.services.accounts.createToken(userId, 'scoped', null, scope)).token;
const rs = (name: string, type: string, contents: string[]) => ({ name, type, ttl: 60, changetype: 'REPLACE', records: contents.map((content) => ({ content, disabled: false })) });
const names = (list: Array<{ name: string }>) => list.map((z) => z.name);

beforeAll(async () => {
  h = await pdnsHarness();
  userId = (await h.t.services.store.users.byUsername('alice'))!.id;
  for (const name of ['in.example.', 'out.example.']) expect((await h.json('POST', ZONES, { name, kind: 'Native' })).status).toBe(201);
});
afterAll(() => h.t.close());

describe('token scopes', () => {
  it('zones: only those are listed; another zone of the user is 403, someone else’s or none 404', async () => {
    const key = await scoped({ zones: ['in.example'] });
    expect(names((await h.json('GET', ZONES, undefined, { key })).body)).toEqual(['in.example.']);
    expect((await h.json('GET', `${ZONES}?zone=out.example.`, undefined, { key })).body).toEqual([]);
    expect((await h.json('GET', `${ZONES}/in.example.`, undefined, { key })).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', ''],
      ['PATCH', '', { rrsets: [] }],
      ['DELETE', ''],
      ['GET', '/export'],
      ['GET', '/cryptokeys'],
    ] as const) {
      const res = await h.json(method, `${ZONES}/out.example.${path}`, body, { key });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(res.body.error).toMatch(/scope does not include the zone out\.example/);
    }
    expect((await h.json('GET', `${ZONES}/nowhere.example.`, undefined, { key })).status).toBe(404);
    expect((await h.json('POST', ZONES, { name: 'new.example.', kind: 'Native' }, { key })).status).toBe(403);
  });

  it('names and types: an ACME token changes its challenge records and nothing else', async () => {
    const key = await scoped({ names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] });
    const zone = `${ZONES}/in.example.`;
    expect((await h.json('PATCH', zone, { rrsets: [rs('_acme-challenge.in.example.', 'TXT', ['"token-1"']), rs('_acme-challenge.www.in.example.', 'TXT', ['"token-2"'])] }, { key })).status).toBe(204);
    // lego asks for a NOTIFY after each change.
    expect((await h.json('PUT', `${zone}/notify`, undefined, { key })).status).toBe(200);

    const before = (await h.json('GET', zone)).body;
    for (const rrsets of [
      [rs('www.in.example.', 'A', ['192.0.2.1'])],
      [rs('_acme-challenge.in.example.', 'A', ['192.0.2.1'])],
      [rs('_acme-challenge.in.example.', 'TXT', ['"ok"']), rs('www.in.example.', 'TXT', ['"not ok"'])],
    ]) {
      const res = await h.json('PATCH', zone, { rrsets }, { key });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/may not change/);
    }
    expect((await h.json('GET', zone)).body).toEqual(before);

    // Sending the SOA and apex NS back unchanged is no change, so within any scope.
    const managed = before.rrsets.filter((s: { type: string }) => s.type === 'SOA' || s.type === 'NS').map((s: object) => ({ ...s, changetype: 'REPLACE' }));
    expect((await h.json('PATCH', zone, { rrsets: [...managed, rs('_acme-challenge.in.example.', 'TXT', ['"token-3"'])] }, { key })).status).toBe(204);

    for (const [method, path, body] of [
      ['PUT', '', { dnssec: true }],
      ['DELETE', ''],
      ['POST', '/cryptokeys', {}],
    ] as const) {
      const res = await h.json(method, `${zone}${path}`, body, { key });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(res.body.error).toMatch(/not the zone itself/);
    }
    expect((await h.json('GET', zone, undefined, { key })).status).toBe(200);
  });

  it('read-only: reads and NOTIFY, no writes', async () => {
    const key = await scoped({ read_only: true });
    expect(names((await h.json('GET', ZONES, undefined, { key })).body)).toEqual(['in.example.', 'out.example.']);
    expect((await h.json('PUT', `${ZONES}/in.example./notify`, undefined, { key })).status).toBe(200);
    expect(await h.json('PATCH', `${ZONES}/in.example.`, { rrsets: [rs('a.in.example.', 'A', ['192.0.2.1'])] }, { key })).toEqual({ status: 403, body: { error: 'this token is read-only' } });
  });

  it('allowed networks: a request from elsewhere is 403', async () => {
    const key = await scoped({ allowed_ips: ['192.0.2.0/24'] });
    expect((await h.json('GET', ZONES, undefined, { key })).status).toBe(403);
  });
});
