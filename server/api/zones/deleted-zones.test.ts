/**
 * Deleted zones: a deleted zone is kept, with its records, keys and
 * history, for HISTORY_DAYS; it is listed under /deleted-domains to whoever may restore it, and
 * restored in one step under the rules of a creation. A zone created under the same name in the
 * meantime starts anew. Runs on SQLite and (with TEST_DATABASE_URL) on PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { inMemory, join } from '../../testing/team-members';

type Change = { id: number; serial_before: number; serial_after: number; comment: string; source: string; added: Array<{ name: string; content: string }>; removed: unknown[] };
type Deleted = { id: number; name: string; deleted_at: string; deleted_by: string; records: number; dnssec: boolean; expires_at: string };
type Rec = { name: string; record_type: string; content: string; ttl: string; disabled?: boolean };

let t: TestApp;
let alice: string;
let bob: string;

async function setup(env: Record<string, string> = {}) {
  t = await createTestApp({ NAMESERVERS: 'ns1.dns.test,ns2.dns.test', ...env });
  alice = await t.user('alice');
  bob = await t.user('bob');
}
afterEach(() => t.close());

const api = (method: string, url: string, body?: unknown, token = alice) => t.request(method, `/api/v1${url}`, { body, token });
async function ok<T = any>(res: Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}
const deleted = (token = alice) => ok<Deleted[]>(api('GET', '/deleted-domains', undefined, token));
const changes = (name: string) => ok<Change[]>(api('GET', `/domains/${name}/changes?per_page=500`));
const records = async (name: string) =>
  (await ok<Rec[]>(api('GET', `/domains/${name}/records?per_page=500`)))
    .map(({ name: n, record_type, content, ttl, disabled }) => ({ name: n, record_type, content, ttl, disabled: disabled ?? false }))
    .sort((a, b) => `${a.name} ${a.record_type} ${a.content}`.localeCompare(`${b.name} ${b.record_type} ${b.content}`));

/** A signed zone with served and disabled records, changed SOA fields and some history. */
async function signedZone(name: string) {
  await ok(api('POST', '/domains', { name, dnssec_enabled: true, minimum_ttl: 600 }), 201);
  await ok(api('POST', `/domains/${name}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: 300 }));
  await ok(api('POST', `/domains/${name}/records`, { name: 'quiet', record_type: 'A', content: '192.0.2.9', disabled: true }));
  await ok(api('POST', `/domains/${name}/records`, { name: '@', record_type: 'TXT', content: 'v=spf1 -all' }));
  await ok(api('PUT', `/domains/${name}`, { refresh_interval: 7200 }));
  return ok(api('GET', `/domains/${name}`));
}

describe('deleting and restoring a zone', () => {
  beforeEach(() => setup());

  it('keeps the deleted zone with its history; a new zone of the name starts anew; a restore brings back records, SOA, keys and history', async () => {
    const before = await signedZone('example.com');
    const recordsBefore = await records('example.com');
    const historyBefore = await changes('example.com');
    expect(historyBefore.length).toBe(5);

    expect((await api('DELETE', '/domains/example.com')).status).toBe(200);
    expect((await api('GET', '/domains/example.com')).status).toBe(404);
    expect((await api('GET', '/domains/example.com/changes')).status).toBe(404);
    expect(await ok(api('GET', '/domains'))).toEqual([]);
    const [first, ...none] = await deleted();
    expect(none).toEqual([]);
    expect(first).toEqual({
      id: expect.any(Number),
      name: 'example.com',
      deleted_at: expect.any(String),
      deleted_by: 'alice',
      records: recordsBefore.length,
      dnssec: true,
      expires_at: expect.any(String),
    });
    expect(Date.parse(first!.expires_at) - Date.parse(first!.deleted_at)).toBe(365 * 86_400_000);

    // The name is free: a zone created under it starts anew, with a history of its own.
    const again = await ok(api('POST', '/domains', { name: 'example.com' }), 201);
    expect(again.dnssec_enabled).toBe(false);
    await ok(api('POST', '/domains/example.com/records', { name: 'new', record_type: 'A', content: '198.51.100.7' }));
    expect((await changes('example.com')).map((c) => c.comment)).toEqual(['', 'zone created']);

    // While it lives, the first cannot come back: 409 naming the zone, nothing changed.
    const clash = await api('POST', `/deleted-domains/${first!.id}/restore`);
    expect(clash.status).toBe(409);
    const err = (await clash.json()).error;
    expect(err).toMatchObject({ status: 409, code: expect.any(String), message: expect.stringContaining('example.com') });
    expect((await deleted()).map((d) => d.id)).toEqual([first!.id]);
    expect((await records('example.com')).map((r) => r.name)).toContain('new');

    // Delete the second one too: both are listed, newest first.
    expect((await api('DELETE', '/domains/example.com')).status).toBe(200);
    const both = await deleted();
    expect(both.map((d) => d.name)).toEqual(['example.com', 'example.com']);
    expect(both[1]!.id).toBe(first!.id);
    const second = both[0]!;
    expect(second).toMatchObject({ dnssec: false, records: 3 });

    // Restore the first: the same zone, with a newer serial and its history, then "zone restored".
    const restored = await ok(api('POST', `/deleted-domains/${first!.id}/restore`));
    expect(restored).toMatchObject({
      name: 'example.com',
      dnssec_enabled: true,
      minimum_ttl: 600,
      refresh_interval: 7200,
      retry_interval: before.retry_interval,
      expire_interval: before.expire_interval,
      created_at: before.created_at,
    });
    expect(restored.serial_number).toBeGreaterThan(before.serial_number);
    expect(restored.ds_records).toEqual(before.ds_records);
    expect(restored.dnskey_records).toEqual(before.dnskey_records);
    expect(await ok(api('GET', '/domains/example.com'))).toEqual(restored);
    expect(await records('example.com')).toEqual(recordsBefore);
    expect((await records('example.com')).find((r) => r.name === 'quiet')?.disabled).toBe(true);

    const history = await changes('example.com');
    expect(history.length).toBe(historyBefore.length + 1);
    expect(history[0]).toMatchObject({ comment: 'zone restored', source: 'api', serial_before: before.serial_number, serial_after: restored.serial_number, added: [], removed: [] });
    const strip = (c: Change) => ({ serial_before: c.serial_before, serial_after: c.serial_after, comment: c.comment, source: c.source, added: c.added, removed: c.removed });
    expect(history.slice(1).map(strip)).toEqual(historyBefore.map(strip));
    // Newest first, in the order they were made (new ids, same order).
    const ids = history.map((c) => c.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    // An old change set can still be opened and reverted.
    const www = history.find((c) => c.added.some((r) => r.content === '192.0.2.1'))!;
    expect((await api('POST', `/domains/example.com/changes/${www.id}/revert`, {})).status).toBe(200);
    expect((await records('example.com')).some((r) => r.name === 'www')).toBe(false);

    // Only the second one is left to restore; the first is gone from the list.
    expect((await deleted()).map((d) => d.id)).toEqual([second.id]);
    expect((await api('POST', `/deleted-domains/${first!.id}/restore`)).status).toBe(404);
    expect((await api('POST', `/deleted-domains/${second.id}/restore`)).status).toBe(409);
  });

  it('the same key material signs again: the DNSKEY and DS the parent holds still match, and the keys open', async () => {
    const before = await signedZone('signed.example');
    expect(before.dnssec_enabled).toBe(true);
    const keysBefore = await t.services.store.dnssecKeys.signingKeys((await t.services.store.domains.byName('signed.example'))!.id);
    expect(keysBefore.length).toBe(1);
    expect((await api('DELETE', '/domains/signed.example')).status).toBe(200);
    const [d] = await deleted();
    await ok(api('POST', `/deleted-domains/${d!.id}/restore`));
    const zone = (await t.services.store.domains.byName('signed.example'))!;
    const keysAfter = await t.services.store.dnssecKeys.signingKeys(zone.id);
    expect(keysAfter.map((k) => [k.key_tag, k.public_key, k.ds_digest, k.private_key])).toEqual(keysBefore.map((k) => [k.key_tag, k.public_key, k.ds_digest, k.private_key]));
  });

  it('brings back PowerDNS attributes and comments; the PowerDNS API and the SPEC API delete alike', async () => {
    const ZONES = '/api/v1/servers/localhost/zones';
    const pdns = (method: string, path: string, body?: unknown) => t.request(method, path, { token: null, body, headers: { 'x-api-key': alice } });
    expect((await pdns('POST', ZONES, { name: 'pdns.example.', kind: 'Native', account: 'acct-7' })).status).toBe(201);
    const note = { content: 'web front', account: 'ops', modified_at: 1700000000 };
    const www = { name: 'www.pdns.example.', type: 'A', ttl: 300 };
    expect((await pdns('PATCH', `${ZONES}/pdns.example.`, { rrsets: [{ ...www, changetype: 'REPLACE', records: [{ content: '192.0.2.5', disabled: false }], comments: [note] }] })).status).toBe(204);
    expect((await pdns('DELETE', `${ZONES}/pdns.example.`)).status).toBe(204);
    expect((await pdns('GET', `${ZONES}/pdns.example.`)).status).toBe(404);
    const [d] = await deleted();
    expect(d).toMatchObject({ name: 'pdns.example', deleted_by: 'alice' });
    await ok(api('POST', `/deleted-domains/${d!.id}/restore`));
    const zone = await ok(pdns('GET', `${ZONES}/pdns.example.`));
    expect(zone.account).toBe('acct-7');
    expect(zone.rrsets.find((r: { name: string; type: string }) => r.name === www.name && r.type === 'A')).toMatchObject({ records: [{ content: '192.0.2.5', disabled: false }], comments: [note] });
  });

  it('links the restored zone to its template again, unless the template was deleted meanwhile', async () => {
    const tpl = await ok(api('POST', '/templates', { name: 'mail', rrsets: [{ name: '@', record_type: 'MX', records: ['10 mx.{zone}'] }] }), 201);
    for (const name of ['kept.example', 'orphan.example']) {
      await ok(api('POST', '/domains', { name, template: tpl.id }), 201);
      expect((await api('DELETE', `/domains/${name}`)).status).toBe(200);
    }
    const byName = new Map((await deleted()).map((d) => [d.name, d.id]));
    await ok(api('POST', `/deleted-domains/${byName.get('kept.example')}/restore`));
    const zones = await ok<Array<{ zone: string; drifted: boolean }>>(api('GET', `/templates/${tpl.id}/zones`));
    expect(zones.map((z) => [z.zone, z.drifted])).toEqual([['kept.example', false]]);
    expect((await api('DELETE', `/templates/${tpl.id}`)).status).toBe(200);
    const orphan = await ok(api('POST', `/deleted-domains/${byName.get('orphan.example')}/restore`));
    expect(orphan.name).toBe('orphan.example');
    expect((await records('orphan.example')).some((r) => r.record_type === 'MX' && r.content === '10 mx.orphan.example')).toBe(true);
  });

  it('records the deletion and the restore in the audit log', async () => {
    await ok(api('POST', '/domains', { name: 'audited.example' }), 201);
    expect((await api('DELETE', '/domains/audited.example')).status).toBe(200);
    const [d] = await deleted();
    await ok(api('POST', `/deleted-domains/${d!.id}/restore`));
    const events = await ok<Array<{ kind: string; actor_username?: string; detail: Record<string, unknown> }>>(api('GET', '/audit'));
    const kinds = events.map((e) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['zone-restored', 'zone-deleted']);
    expect(events[1]!.detail).toMatchObject({ zone: 'audited.example', deleted_zone_id: d!.id });
  });
});

describe('who may list and restore a deleted zone', () => {
  beforeEach(() => setup());

  it('another user sees nothing and gets 404; a read-only token lists but may not restore; a token for other zones sees nothing', async () => {
    await ok(api('POST', '/domains', { name: 'mine.example' }), 201);
    expect((await api('DELETE', '/domains/mine.example')).status).toBe(200);
    const [d] = await deleted();

    expect(await deleted(bob)).toEqual([]);
    const other = await api('POST', `/deleted-domains/${d!.id}/restore`, undefined, bob);
    expect(other.status).toBe(404);
    expect((await other.json()).error.status).toBe(404);

    const readOnly = (await ok(api('POST', '/tokens', { label: 'ro', scope: { read_only: true } }), 201)).token as string;
    expect((await deleted(readOnly)).map((x) => x.id)).toEqual([d!.id]);
    expect((await api('POST', `/deleted-domains/${d!.id}/restore`, undefined, readOnly)).status).toBe(403);

    const elsewhere = (await ok(api('POST', '/tokens', { label: 'other', scope: { zones: ['other.example'] } }), 201)).token as string;
    expect(await deleted(elsewhere)).toEqual([]);
    expect((await api('POST', `/deleted-domains/${d!.id}/restore`, undefined, elsewhere)).status).toBe(403);
    const scoped = (await ok(api('POST', '/tokens', { label: 'this', scope: { zones: ['mine.example'] } }), 201)).token as string;
    expect((await deleted(scoped)).map((x) => x.id)).toEqual([d!.id]);

    // Nothing of the refusals changed anything: the owner restores it.
    expect((await deleted()).length).toBe(1);
    await ok(api('POST', `/deleted-domains/${d!.id}/restore`, undefined, scoped));
    expect((await api('GET', '/domains/mine.example')).status).toBe(200);
  });

  it("a team's deleted zone is its owners' to restore; an admin of the team neither sees nor restores it", async () => {
    await ok(api('POST', '/teams', { name: 'crew' }), 201);
    await join(inMemory(t), 'crew', alice, { username: 'bob', token: bob }, 'admin');
    await ok(api('POST', '/domains', { name: 'crew.example', team: 'crew' }), 201);
    expect((await api('DELETE', '/domains/crew.example')).status).toBe(200);
    const [d] = await deleted();
    expect(d).toMatchObject({ name: 'crew.example' });
    expect(await deleted(bob)).toEqual([]);
    expect((await api('POST', `/deleted-domains/${d!.id}/restore`, undefined, bob)).status).toBe(404);
    const zone = await ok(api('POST', `/deleted-domains/${d!.id}/restore`));
    expect(zone.team).toBe('crew');
  });

  it('bad paths and pages are refused naming what is wrong', async () => {
    expect((await api('POST', '/deleted-domains/abc/restore')).status).toBe(404);
    expect((await api('POST', '/deleted-domains/99999/restore')).status).toBe(404);
    const bad = await api('GET', '/deleted-domains?per_page=501');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('per_page');
    expect((await api('GET', '/deleted-domains', undefined, 'nope')).status).toBe(401);
    await ok(api('POST', '/domains', { name: 'body.example' }), 201);
    expect((await api('DELETE', '/domains/body.example')).status).toBe(200);
    const [d] = await deleted();
    const extra = await api('POST', `/deleted-domains/${d!.id}/restore`, { when: 'now' });
    expect(extra.status).toBe(400);
    expect((await extra.json()).error.fields).toHaveProperty('when');
    expect((await deleted()).length).toBe(1);
    await ok(api('POST', `/deleted-domains/${d!.id}/restore`, {}));
  });
});

describe('restoring under the rules of a creation', () => {
  it('a deleted zone does not count against MAX_ZONES_PER_USER; restoring past it is 403', async () => {
    await setup({ MAX_ZONES_PER_USER: '1' });
    await ok(api('POST', '/domains', { name: 'a.example' }), 201);
    expect((await api('DELETE', '/domains/a.example')).status).toBe(200);
    await ok(api('POST', '/domains', { name: 'b.example' }), 201);
    const [d] = await deleted();
    const res = await api('POST', `/deleted-domains/${d!.id}/restore`);
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/MAX_ZONES_PER_USER/);
    expect((await deleted()).length).toBe(1);
    expect((await api('GET', '/domains/a.example')).status).toBe(404);
  });

  it('a zone of another account now nested inside the name is a 409 naming it', async () => {
    await setup();
    await ok(api('POST', '/domains', { name: 'parent.example' }), 201);
    expect((await api('DELETE', '/domains/parent.example')).status).toBe(200);
    await ok(api('POST', '/domains', { name: 'sub.parent.example' }, bob), 201);
    const [d] = await deleted();
    const res = await api('POST', `/deleted-domains/${d!.id}/restore`);
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toMatch(/parent\.example contains sub\.parent\.example/);
  });
});

describe('expiry', () => {
  it('a deleted zone is kept HISTORY_DAYS days, then purged and no longer restorable', async () => {
    await setup({ HISTORY_DAYS: '2' });
    await ok(api('POST', '/domains', { name: 'old.example' }), 201);
    expect((await api('DELETE', '/domains/old.example')).status).toBe(200);
    const [d] = await deleted();
    expect(Date.parse(d!.expires_at) - Date.parse(d!.deleted_at)).toBe(2 * 86_400_000);
    expect((await api('GET', '/deleted-domains')).headers.get('x-restorable-days')).toBe('2');
    // The hourly pruning before the time is up keeps it.
    expect(await t.services.deletedZones.purge()).toBe(0);
    expect((await deleted()).length).toBe(1);
    // After it, the archive is gone.
    expect(await t.services.deletedZones.purge(new Date(Date.parse(d!.expires_at) + 1000))).toBe(1);
    expect(await deleted()).toEqual([]);
    expect((await api('POST', `/deleted-domains/${d!.id}/restore`)).status).toBe(404);
  });
});
