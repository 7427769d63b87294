/**
 * RRset comments through the PowerDNS API: PowerDNS-Admin and other tools
 * write them and read them back. REPLACE with `comments` sets them, REPLACE without keeps them,
 * DELETE removes them with the records; a comment-only RRset is listed; scopes cover them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

let h: PdnsHarness;
const ZONE = `${ZONES}/comments.example.`;
beforeAll(async () => {
  h = await pdnsHarness();
  expect((await h.json('POST', ZONES, { name: 'comments.example.', kind: 'Native' })).status).toBe(201);
});
afterAll(() => h.t.close());

const rrset = async (name: string, type: string) => (await h.json('GET', `${ZONE}?rrset_name=${name}&rrset_type=${type}`)).body.rrsets[0];
const www = { name: 'www.comments.example.', type: 'A', ttl: 300 };

describe('RRset comments', () => {
  it('are kept with the records, replaced, kept across a records-only REPLACE, and removed by DELETE', async () => {
    const note = { content: 'web front, ticket OPS-12', account: 'alice', modified_at: 1700000000 };
    expect((await h.json('PATCH', ZONE, { rrsets: [{ ...www, changetype: 'REPLACE', records: [{ content: '192.0.2.1', disabled: false }], comments: [note] }] })).status).toBe(204);
    expect(await rrset('www.comments.example.', 'A')).toEqual({ ...www, records: [{ content: '192.0.2.1', disabled: false }], comments: [note] });
    // REPLACE with records only: the comments stay (PowerDNS's PATCH).
    expect((await h.json('PATCH', ZONE, { rrsets: [{ ...www, changetype: 'REPLACE', records: [{ content: '192.0.2.2', disabled: false }] }] })).status).toBe(204);
    expect((await rrset('www.comments.example.', 'A')).comments).toEqual([note]);
    // REPLACE with comments only: the records stay; a comment without modified_at gets the time.
    expect((await h.json('PATCH', ZONE, { rrsets: [{ ...www, changetype: 'REPLACE', comments: [{ content: 'moved', account: '' }] }] })).status).toBe(204);
    const after = await rrset('www.comments.example.', 'A');
    expect(after.records).toEqual([{ content: '192.0.2.2', disabled: false }]);
    expect(after.comments).toEqual([{ content: 'moved', account: '', modified_at: expect.any(Number) }]);
    expect(after.comments[0].modified_at).toBeGreaterThan(1700000000);
    // DELETE takes both.
    expect((await h.json('PATCH', ZONE, { rrsets: [{ ...www, changetype: 'DELETE' }] })).status).toBe(204);
    expect(await rrset('www.comments.example.', 'A')).toBeUndefined();
  });

  it('a comment on an RRset without records is listed, as PowerDNS lists it', async () => {
    expect(
      (
        await h.json('PATCH', ZONE, {
          rrsets: [{ name: 'later.comments.example.', type: 'MX', ttl: 3600, changetype: 'REPLACE', comments: [{ content: 'mail moves here in May', account: 'ops', modified_at: 1 }] }],
        })
      ).status,
    ).toBe(204);
    expect(await rrset('later.comments.example.', 'MX')).toMatchObject({ records: [], comments: [{ content: 'mail moves here in May', account: 'ops', modified_at: 1 }] });
  });

  it('a bad comment is 422 naming it; a scoped token comments only where it may write', async () => {
    const bad = await h.json('PATCH', ZONE, { rrsets: [{ ...www, changetype: 'REPLACE', comments: [{ content: 'x'.repeat(5000) }] }] });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/comments\.0\.content/);
    const res = await h.t.request('POST', '/api/v1/tokens', { body: { label: 'acme', scope: { names: ['_acme-challenge'], types: ['TXT'] } } });
    const acme = (await res.json()).token as string;
    const out = await h.json('PATCH', ZONE, { rrsets: [{ ...www, changetype: 'REPLACE', comments: [{ content: 'hijacked' }] }] }, { key: acme });
    expect(out.status).toBe(403);
    expect(await rrset('www.comments.example.', 'A')).toBeUndefined();
    const ok = await h.json(
      'PATCH',
      ZONE,
      { rrsets: [{ name: '_acme-challenge.comments.example.', type: 'TXT', ttl: 60, changetype: 'REPLACE', records: [{ content: '"t"', disabled: false }], comments: [{ content: 'certbot' }] }] },
      { key: acme },
    );
    expect(ok.status).toBe(204);
  });
});
