/**
 * Templates. Created from RRsets or from a zone; a zone created from one gets its
 * records in its first change set; applied to zones with a preview, then one change set per zone
 * under one batch; the template's zones with their drift; others' templates are 404. Runs on
 * SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { inMemory, join } from '../../testing/team-members';

let t: TestApp;
let alice: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
  for (const name of ['one.example', 'two.example', 'src.example']) expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name } })).status).toBe(201);
  const patch = await t.request('PATCH', '/api/v1/domains/src.example/rrsets', {
    token: alice,
    body: {
      rrsets: [
        { name: '@', record_type: 'MX', ttl: '3600', changetype: 'REPLACE', records: ['10 mail.src.example.'] },
        { name: 'mail', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['192.0.2.10'] },
        { name: '@', record_type: 'TXT', ttl: '300', changetype: 'REPLACE', records: ['"v=spf1 mx -all"'] },
      ],
    },
  });
  expect(patch.status).toBe(200);
});
afterAll(() => t.close());

const mail = {
  name: 'mail',
  description: 'our mail provider',
  rrsets: [
    { name: '@', record_type: 'MX', ttl: 3600, records: ['10 {mx}.'] },
    { name: '_dmarc', record_type: 'TXT', ttl: '300', records: ['"v=DMARC1; p=reject; rua=mailto:dmarc@{zone}"'] },
  ],
};

const records = async (zone: string) =>
  ((await (await t.request('GET', `/api/v1/domains/${zone}/records?per_page=500`, { token: alice })).json()) as Array<{ name: string; record_type: string; content: string; ttl: string }>)
    .filter((r) => r.record_type !== 'NS')
    .map((r) => `${r.name} ${r.ttl} ${r.record_type} ${r.content}`)
    .sort();

describe('templates', () => {
  let id: number;

  it('creates a template with placeholders, lists it with the variables it needs, and hides it from others', async () => {
    const res = await t.request('POST', '/api/v1/templates', { token: alice, body: mail });
    expect(res.status).toBe(201);
    const body = await res.json();
    id = body.id;
    expect(body).toMatchObject({
      name: 'mail',
      team: null,
      variables: ['mx'],
      rrsets: [
        { name: '@', record_type: 'MX', ttl: '3600', records: ['10 {mx}.'] },
        { name: '_dmarc', ttl: '300' },
      ],
    });
    expect((await (await t.request('GET', '/api/v1/templates', { token: alice })).json()).map((x: { name: string }) => x.name)).toEqual(['mail']);
    expect(await (await t.request('GET', '/api/v1/templates', { token: bob })).json()).toEqual([]);
    expect((await t.request('GET', `/api/v1/templates/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('DELETE', `/api/v1/templates/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('POST', `/api/v1/templates/${id}/apply`, { token: bob, body: { zones: ['one.example'] } })).status).toBe(404);
    // The same name again is a conflict.
    expect((await t.request('POST', '/api/v1/templates', { token: alice, body: mail })).status).toBe(409);
  });

  it('refuses bad templates with 400 naming the field, and stores nothing', async () => {
    const bad = [
      [{ ...mail, name: 'x', rrsets: [{ name: '@', record_type: 'NOPE', records: ['1'] }] }, 'rrsets.0.record_type'],
      [{ ...mail, name: 'x', rrsets: [{ name: 'www', record_type: 'A', records: ['300.1.1.1'] }] }, 'rrsets.0.records.0'],
      [{ ...mail, name: 'x', rrsets: [{ name: '@', record_type: 'NS', records: ['ns.example.'] }] }, 'rrsets.0.record_type'],
      [{ ...mail, name: 'x', rrsets: [{ name: 'www', record_type: 'A', ttl: 'soon', records: ['192.0.2.1'] }] }, 'rrsets.0.ttl'],
      [{ ...mail, name: '' }, 'name'],
      [{ name: 'x' }, 'rrsets'],
      [{ ...mail, name: 'x', from_zone: 'one.example' }, 'rrsets'],
      [{ ...mail, name: 'x', surprise: 1 }, 'surprise'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await t.request('POST', '/api/v1/templates', { token: alice, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await res.json()).error.fields)).toContain(field);
    }
    expect((await t.request('POST', '/api/v1/templates', { token: alice, body: { name: 'x', from_zone: 'nope.example' } })).status).toBe(404);
    expect((await (await t.request('GET', '/api/v1/templates', { token: alice })).json()).length).toBe(1);
  });

  it('makes a template from a zone, its name turned into {zone}', async () => {
    const res = await t.request('POST', '/api/v1/templates', { token: alice, body: { name: 'from src', from_zone: 'src.example' } });
    expect(res.status).toBe(201);
    expect((await res.json()).rrsets).toEqual([
      { name: '@', record_type: 'MX', ttl: '3600', records: ['10 mail.{zone}'] },
      { name: '@', record_type: 'TXT', ttl: '300', records: ['v=spf1 mx -all'] },
      { name: 'mail', record_type: 'A', ttl: '300', records: ['192.0.2.10'] },
    ]);
  });

  it('creates a zone from a template in its first change set, and remembers it', async () => {
    const missing = await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'new.example', template: id } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.fields).toHaveProperty(['rrsets.0.records.0']);
    expect((await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'bobs.example', template: id, variables: { mx: 'mx.example.net' } } })).status).toBe(400);
    expect((await t.request('GET', '/api/v1/domains/new.example', { token: alice })).status).toBe(404);

    const res = await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'new.example', template: id, variables: { mx: 'mx.example.net' } } });
    expect(res.status).toBe(201);
    expect(await records('new.example')).toEqual(['@ 3600 MX 10 mx.example.net', '_dmarc 300 TXT v=DMARC1; p=reject; rua=mailto:dmarc@new.example']);
    const history = await (await t.request('GET', '/api/v1/domains/new.example/changes', { token: alice })).json();
    expect(history).toHaveLength(1);
    expect(history[0].added.map((r: { record_type: string }) => r.record_type).sort()).toEqual(['MX', 'NS', 'NS', 'TXT']);
    expect(history[0]).not.toHaveProperty('batch');
    const zones = await (await t.request('GET', `/api/v1/templates/${id}/zones`, { token: alice })).json();
    expect(zones).toEqual([{ zone: 'new.example', applied_at: expect.any(String), variables: { mx: 'mx.example.net' }, drifted: false, differences: [] }]);
  });

  it('previews an apply per zone, applies it as one batch, shows drift, and reverts the batch', async () => {
    // one.example has an MX of its own that merge mode replaces.
    await t.request('PATCH', '/api/v1/domains/one.example/rrsets', {
      token: alice,
      body: {
        rrsets: [
          { name: '@', record_type: 'MX', ttl: '3600', changetype: 'REPLACE', records: ['5 old.one.example.'] },
          { name: 'www', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['192.0.2.1'] },
        ],
      },
    });
    const before = await records('one.example');
    const body = { zones: ['one.example', 'two.example'], variables: { mx: 'mx.example.net' } };
    const dry = await t.request('POST', `/api/v1/templates/${id}/apply?dry_run=true`, { token: alice, body });
    expect(dry.status).toBe(200);
    const preview = await dry.json();
    expect(preview.batch).toBeNull();
    expect(preview.zones.map((z: { zone: string; rrsets: unknown }) => [z.zone, z.rrsets])).toEqual([
      [
        'one.example',
        [
          { name: '@', record_type: 'MX', action: 'replace' },
          { name: '_dmarc', record_type: 'TXT', action: 'add' },
        ],
      ],
      [
        'two.example',
        [
          { name: '@', record_type: 'MX', action: 'add' },
          { name: '_dmarc', record_type: 'TXT', action: 'add' },
        ],
      ],
    ]);
    expect(await records('one.example')).toEqual(before);

    // Replace mode would remove what the template lacks (www), never the apex NS set.
    const replace = await (await t.request('POST', `/api/v1/templates/${id}/apply?dry_run=true`, { token: alice, body: { ...body, zones: ['one.example'], mode: 'replace' } })).json();
    expect(replace.zones[0].rrsets).toContainEqual({ name: 'www', record_type: 'A', action: 'remove' });

    // One zone that would fail fails the batch before anything is written.
    const failing = await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body: { zones: ['one.example', 'two.example'], variables: {} } });
    expect(failing.status).toBe(400);
    expect(await records('one.example')).toEqual(before);
    expect((await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body: { zones: [], variables: {} } })).status).toBe(400);
    expect((await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body: { zones: ['one.example'], variables: { 'Bad-Name': 'x' } } })).status).toBe(400);

    const res = await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body });
    expect(res.status).toBe(200);
    const applied = await res.json();
    expect(applied.batch).toMatch(/^[0-9a-f-]{36}$/);
    expect(applied.zones.every((z: { change: { batch: string; id: number } }) => z.change.batch === applied.batch && z.change.id > 0)).toBe(true);
    expect(await records('two.example')).toEqual(['@ 3600 MX 10 mx.example.net', '_dmarc 300 TXT v=DMARC1; p=reject; rua=mailto:dmarc@two.example']);
    const [last] = await (await t.request('GET', '/api/v1/domains/two.example/changes', { token: alice })).json();
    expect(last.batch).toBe(applied.batch);

    // two.example drifts: someone edits its MX by hand.
    await t.request('PATCH', '/api/v1/domains/two.example/rrsets', { token: alice, body: { rrsets: [{ name: '@', record_type: 'MX', changetype: 'REPLACE', records: ['10 other.example.net.'] }] } });
    const zones = await (await t.request('GET', `/api/v1/templates/${id}/zones`, { token: alice })).json();
    expect(zones.map((z: { zone: string; drifted: boolean }) => [z.zone, z.drifted])).toEqual([
      ['new.example', false],
      ['one.example', false],
      ['two.example', true],
    ]);
    expect(zones[2].differences).toEqual([{ name: '@', record_type: 'MX', expected: ['10 mx.example.net'], actual: ['10 other.example.net'] }]);
    // Each zone names its template, in step or drifted; a zone from no template, or another user, gets 404.
    const of = async (zone: string, token = alice) => t.request('GET', `/api/v1/domains/${zone}/template`, { token });
    expect(await (await of('one.example')).json()).toMatchObject({ template: { id, name: 'mail' }, zone: 'one.example', drifted: false, differences: [] });
    expect(await (await of('two.example')).json()).toMatchObject({ template: { id, name: 'mail' }, drifted: true, differences: [{ name: '@', record_type: 'MX' }] });
    expect((await of('src.example')).status).toBe(404);
    expect((await of('two.example', bob)).status).toBe(404);

    // The batch cannot be reverted while two.example's MX has changed since: 409 naming it, nothing applied.
    const conflict = await t.request('POST', `/api/v1/batches/${applied.batch}/revert`, { token: alice });
    expect(conflict.status).toBe(409);
    const error = (await conflict.json()).error;
    expect(error.message).toMatch(/two\.example changed since/);
    expect(Object.keys(error.fields)).toEqual(['two.example']);
    expect(await records('one.example')).not.toEqual(before);
    // Undo the hand edit, then the batch reverts as one.
    await t.request('PATCH', '/api/v1/domains/two.example/rrsets', { token: alice, body: { rrsets: [{ name: '@', record_type: 'MX', changetype: 'REPLACE', records: ['10 mx.example.net.'] }] } });
    expect((await t.request('GET', `/api/v1/batches/${applied.batch}`, { token: bob })).status).toBe(404);
    const reverted = await t.request('POST', `/api/v1/batches/${applied.batch}/revert`, { token: alice });
    expect(reverted.status).toBe(200);
    expect(await records('one.example')).toEqual(before);
    expect(await records('two.example')).toEqual([]);
  });

  it('lets team members use a team template and only owners and admins change it', async () => {
    expect((await t.request('POST', '/api/v1/teams', { token: alice, body: { name: 'ops' } })).status).toBe(201);
    await join(inMemory(t), 'ops', alice, { username: 'bob', token: bob }, 'editor');
    expect((await t.request('POST', '/api/v1/templates', { token: bob, body: { ...mail, team: 'ops' } })).status).toBe(403);
    const res = await t.request('POST', '/api/v1/templates', { token: alice, body: { ...mail, team: 'ops' } });
    expect(res.status).toBe(201);
    const teamTemplate = await res.json();
    expect(teamTemplate.team).toBe('ops');
    expect((await t.request('GET', `/api/v1/templates/${teamTemplate.id}`, { token: bob })).status).toBe(200);
    expect((await t.request('PUT', `/api/v1/templates/${teamTemplate.id}`, { token: bob, body: { description: 'mine now' } })).status).toBe(403);
    const put = await t.request('PUT', `/api/v1/templates/${teamTemplate.id}`, { token: alice, body: { description: 'shared' } });
    expect((await put.json()).description).toBe('shared');
  });
});
