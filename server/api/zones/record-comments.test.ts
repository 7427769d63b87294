/**
 * Record comments through the records API: one per RRset, set, read, kept, cleared and refused
 * when too long or holding control characters; the same comment the PowerDNS API shows and writes;
 * a scoped token comments only where it may write; what a delete and its revert do to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';
import { inMemory, join } from '../../testing/team-members';

let h: PdnsHarness;
const base = '/api/v1/domains/notes.example/records';
const PDNS_ZONE = `${ZONES}/notes.example.`;

beforeAll(async () => {
  h = await pdnsHarness();
  expect((await h.t.request('POST', '/api/v1/domains', { body: { name: 'notes.example' } })).status).toBe(201);
});
afterAll(() => h.t.close());

const call = async (method: string, url: string, body?: unknown, token?: string) => {
  const res = await h.t.request(method, url, { body, ...(token ? { token } : {}) });
  return { status: res.status, body: await res.json() };
};
const listed = async (q = '') => (await call('GET', `${base}${q}`)).body as Array<{ id: number; name: string; content: string; comment?: string }>;
const pdnsSet = async (name: string, type: string) => (await h.json('GET', `${PDNS_ZONE}?rrset_name=${name}&rrset_type=${type}`)).body.rrsets[0];

describe('record comments', () => {
  it('are set on create, shown on every record of the RRset, kept by an edit that does not name them, and cleared', async () => {
    const first = await call('POST', base, { name: 'www', record_type: 'A', content: '192.0.2.1', comment: 'web front, ticket OPS-12' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ name: 'www', content: '192.0.2.1', comment: 'web front, ticket OPS-12' });
    const second = await call('POST', base, { name: 'www', record_type: 'A', content: '192.0.2.2' });
    expect(second.body.comment).toBe('web front, ticket OPS-12');
    expect((await listed('?name=www')).map((r) => r.comment)).toEqual(['web front, ticket OPS-12', 'web front, ticket OPS-12']);

    // A content edit that does not name the comment keeps it.
    const edited = await call('PUT', `${base}/${first.body.id}`, { content: '192.0.2.3' });
    expect(edited.body).toMatchObject({ content: '192.0.2.3', comment: 'web front, ticket OPS-12' });
    expect((await call('GET', `${base}/${first.body.id}`)).body.comment).toBe('web front, ticket OPS-12');

    // A comment-only edit changes no record and no serial.
    const serial = (await call('GET', '/api/v1/domains/notes.example')).body.serial_number;
    const renamed = await call('PUT', `${base}/${second.body.id}`, { comment: 'web front (both)' });
    expect(renamed.body.comment).toBe('web front (both)');
    expect((await call('GET', '/api/v1/domains/notes.example')).body.serial_number).toBe(serial);
    expect((await listed('?name=www')).map((r) => r.comment)).toEqual(['web front (both)', 'web front (both)']);

    for (const clear of ['', null]) {
      await call('PUT', `${base}/${first.body.id}`, { comment: 'again' });
      const cleared = await call('PUT', `${base}/${first.body.id}`, { comment: clear });
      expect(cleared.status).toBe(200);
      expect(cleared.body).not.toHaveProperty('comment');
      expect((await listed('?name=www')).every((r) => !('comment' in r))).toBe(true);
    }
  });

  it('refuses a comment too long or with control characters: 400 naming the field, nothing written', async () => {
    const long = await call('POST', base, { name: 'long', record_type: 'TXT', content: 'x', comment: 'x'.repeat(513) });
    expect(long.status).toBe(400);
    expect(long.body.error.fields).toEqual({ comment: 'must be at most 512 characters' });
    expect(await listed('?name=long')).toEqual([]);
    expect((await call('POST', base, { name: 'long', record_type: 'TXT', content: 'x', comment: 'x'.repeat(512) })).status).toBe(200);
    const { id } = (await listed('?name=long'))[0]!;
    const control = await call('PUT', `${base}/${id}`, { comment: 'two\nlines' });
    expect(control.status).toBe(400);
    expect(control.body.error.fields.comment).toMatch(/^must not contain control characters/);
    expect((await listed('?name=long'))[0]!.comment).toBe('x'.repeat(512));
  });

  it('is the comment the PowerDNS API shows and writes (one storage)', async () => {
    await call('POST', base, { name: 'mail', record_type: 'MX', content: '10 mx.notes.example', comment: 'set in the dashboard' });
    expect((await pdnsSet('mail.notes.example.', 'MX')).comments).toEqual([{ content: 'set in the dashboard', account: 'alice', modified_at: expect.any(Number) }]);
    const patch = { rrsets: [{ name: 'mail.notes.example.', type: 'MX', ttl: 3600, changetype: 'REPLACE', comments: [{ content: 'set by PowerDNS-Admin', account: 'ops' }] }] };
    expect((await h.json('PATCH', PDNS_ZONE, patch)).status).toBe(204);
    expect((await listed('?name=mail'))[0]!.comment).toBe('set by PowerDNS-Admin');
    const id = (await listed('?name=mail'))[0]!.id;
    await call('PUT', `${base}/${id}`, { comment: null });
    expect((await pdnsSet('mail.notes.example.', 'MX')).comments).toEqual([]);
  });

  it('a scoped token sets comments only where it may write; a read-only one none', async () => {
    const { id } = (await call('POST', base, { name: 'api', record_type: 'A', content: '192.0.2.10', comment: 'owner note' })).body;
    const acme = (await call('POST', '/api/v1/tokens', { label: 'acme', scope: { names: ['_acme-challenge'], types: ['TXT'] } })).body.token as string;
    const reader = (await call('POST', '/api/v1/tokens', { label: 'reader', scope: { read_only: true } })).body.token as string;
    for (const token of [acme, reader]) {
      expect((await call('PUT', `${base}/${id}`, { comment: 'hijacked' }, token)).status).toBe(403);
    }
    expect((await call('GET', `${base}/${id}`)).body.comment).toBe('owner note');
    const ok = await call('POST', base, { name: '_acme-challenge', record_type: 'TXT', content: 'token', comment: 'certbot' }, acme);
    expect(ok.body.comment).toBe('certbot');
  });

  it("a team viewer reads a team zone's comments and sets none; an editor sets them", async () => {
    const [viewer, editor] = [await h.t.user('vera'), await h.t.user('ed')];
    expect((await call('POST', '/api/v1/teams', { name: 'Crew' })).status).toBe(201);
    const owner = (await call('POST', '/api/v1/tokens', { label: 'owner' })).body.token as string;
    await join(inMemory(h.t), 'crew', owner, { username: 'vera', token: viewer }, 'viewer');
    await join(inMemory(h.t), 'crew', owner, { username: 'ed', token: editor }, 'editor');
    expect((await call('POST', '/api/v1/domains', { name: 'crew.example', team: 'crew' })).status).toBe(201);
    const crew = '/api/v1/domains/crew.example/records';
    const { id } = (await call('POST', crew, { name: 'www', record_type: 'A', content: '192.0.2.40', comment: 'team note' })).body;
    expect((await call('GET', `${crew}/${id}`, undefined, viewer)).body.comment).toBe('team note');
    expect((await call('PUT', `${crew}/${id}`, { comment: 'viewer note' }, viewer)).status).toBe(403);
    const edited = await call('PUT', `${crew}/${id}`, { comment: 'editor note' }, editor);
    expect(edited.status).toBe(200);
    expect(edited.body.comment).toBe('editor note');
  });

  it('follows a record renamed out of its RRset, and goes with the last record deleted (a revert brings back the records, not the comment)', async () => {
    const { id } = (await call('POST', base, { name: 'old', record_type: 'A', content: '192.0.2.20', comment: 'moving' })).body;
    const moved = await call('PUT', `${base}/${id}`, { name: 'new' });
    expect(moved.body).toMatchObject({ name: 'new', comment: 'moving' });
    expect(await pdnsSet('old.notes.example.', 'A')).toBeUndefined();

    const removed = await call('DELETE', `${base}/${id}`);
    expect(removed.status).toBe(200);
    expect(await pdnsSet('new.notes.example.', 'A')).toBeUndefined();
    const [change] = (await call('GET', '/api/v1/domains/notes.example/changes')).body as Array<{ id: number }>;
    expect((await call('POST', `/api/v1/domains/notes.example/changes/${change!.id}/revert`, {})).status).toBe(200);
    const back = await listed('?name=new');
    expect(back.map((r) => [r.content, r.comment])).toEqual([['192.0.2.20', undefined]]);
  });

  it('is set and cleared per RRset by PATCH /rrsets; DELETE takes it along; a bad one is 400 naming its position', async () => {
    const patch = (rrsets: unknown[]) => call('PATCH', '/api/v1/domains/notes.example/rrsets', { rrsets });
    expect((await patch([{ name: 'bulk', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.30', '192.0.2.31'], comment: 'set in bulk' }])).status).toBe(200);
    expect((await listed('?name=bulk')).map((r) => r.comment)).toEqual(['set in bulk', 'set in bulk']);
    // An entry that does not name the comment keeps it.
    expect((await patch([{ name: 'bulk', record_type: 'A', changetype: 'ADD', records: ['192.0.2.32'] }])).status).toBe(200);
    expect((await listed('?name=bulk')).map((r) => r.comment)).toEqual(['set in bulk', 'set in bulk', 'set in bulk']);
    const bad = await patch([{ name: 'bulk', record_type: 'A', changetype: 'ADD', records: ['192.0.2.33'], comment: 'x'.repeat(600) }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ 'rrsets.0.comment': 'must be at most 512 characters' });
    expect(await listed('?name=bulk')).toHaveLength(3);
    expect((await patch([{ name: 'bulk', record_type: 'A', changetype: 'DELETE' }])).status).toBe(200);
    expect(await pdnsSet('bulk.notes.example.', 'A')).toBeUndefined();
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body;
    expect(doc.components.schemas.Record.properties.comment).toBeDefined();
    expect(doc.components.schemas.RecordUpdate.properties.comment.maxLength).toBe(512);
  });
});
