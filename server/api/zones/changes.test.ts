/**
 * Change sets through the API: the history of every write, atomic RRset
 * PATCH, dry runs, If-Match, and revert. Runs on SQLite and on PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
});
afterEach(() => t.close());

const Z = '/api/v1/domains/example.com';
const json = async (res: Response | Promise<Response>) => (await res).json();
const patch = (rrsets: unknown[], opts: { query?: string; headers?: Record<string, string>; comment?: string } = {}) =>
  t.request('PATCH', `${Z}/rrsets${opts.query ?? ''}`, { body: { rrsets, ...(opts.comment ? { comment: opts.comment } : {}) }, headers: opts.headers });
const records = async () =>
  ((await json(t.request('GET', `${Z}/records?per_page=500`))) as { name: string; record_type: string; content: string; ttl: string }[])
    .map((r) => `${r.name} ${r.ttl} ${r.record_type} ${r.content}`)
    .sort();
const serial = async () => (await json(t.request('GET', Z))).serial_number as number;
const history = async (q = '') => json(t.request('GET', `${Z}/changes${q}`));

describe('the history', () => {
  it('records every write with who, how, when and the diff, newest first', async () => {
    const rec = await json(t.request('POST', `${Z}/records`, { body: { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' } }));
    await t.request('PUT', Z, { body: { minimum_ttl: 600 } });
    await t.request('PUT', `${Z}/records/${rec.id}`, { body: { content: '192.0.2.2' } });
    const list = await history();
    expect(list.map((c: { source: string }) => c.source)).toEqual(['api', 'api', 'api', 'api']);
    const [edit, settings, create, zone] = list;
    const tokenId = (await json(t.request('GET', '/api/v1/tokens')))[0].id;
    expect(create).toMatchObject({
      id: expect.any(Number),
      actor: { username: 'alice', credential: `token:${tokenId}` },
      added: [{ name: 'www', record_type: 'A', ttl: '300', content: '192.0.2.1' }],
      removed: [],
      settings: {},
    });
    expect(create.serial_after).toBeGreaterThan(create.serial_before);
    expect(settings.settings).toEqual({ minimum_ttl: [3600, 600] });
    expect(edit).toMatchObject({ added: [{ name: 'www', content: '192.0.2.2' }], removed: [{ name: 'www', content: '192.0.2.1' }] });
    expect(edit.serial_after).toBe(await serial());
    expect(zone).toMatchObject({
      serial_before: 0,
      comment: 'zone created',
      added: [
        { name: '@', record_type: 'NS' },
        { name: '@', record_type: 'NS' },
      ],
    });
    // Each change set continues where the one before it ended.
    for (let i = 0; i + 1 < list.length; i++) expect(list[i].serial_before).toBe(list[i + 1].serial_after);
  });

  it('pages like every list and filters by source and user', async () => {
    for (let i = 0; i < 5; i++) await t.request('POST', `${Z}/records`, { body: { name: `h${i}`, record_type: 'A', content: '192.0.2.1' } });
    await t.request('PUT', Z, { body: { refresh_interval: 7200 } });
    const res = await t.request('GET', `${Z}/changes?per_page=2&page=2`);
    expect(res.headers.get('x-total-count')).toBe('7');
    expect(res.headers.get('link')).toMatch(/rel="next"/);
    expect((await res.json()).map((c: { added: { name: string }[] }) => c.added[0]?.name)).toEqual(['h3', 'h2']);
    expect(await history('?username=bob')).toEqual([]);
    expect((await history('?source=api')).length).toBe(7);
    const bad = await t.request('GET', `${Z}/changes?source=ftp`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('source');
  });

  it('shows at most 1,000 records of each side in a list, and all of them in the change set', async () => {
    const records = Array.from({ length: 1200 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const cs = await json(patch([{ name: 'many', record_type: 'A', changetype: 'REPLACE', records }]));
    const [listed] = await history();
    expect(listed).toMatchObject({ id: cs.id, added_count: 1200, removed_count: 0 });
    expect(listed.added).toHaveLength(1000);
    expect((await json(t.request('GET', `${Z}/changes/${cs.id}`))).added).toHaveLength(1200);
  });

  it('is pruned after HISTORY_DAYS', async () => {
    await t.request('POST', `${Z}/records`, { body: { name: 'a', record_type: 'A', content: '192.0.2.1' } });
    expect(await t.services.changes.prune(365)).toBe(0);
    expect((await history()).length).toBe(2);
    expect(await t.services.changes.prune(365, new Date(Date.now() + 366 * 86_400_000))).toBe(2);
    const res = await t.request('GET', `${Z}/changes`);
    expect(res.headers.get('x-total-count')).toBe('0');
    expect(await res.json()).toEqual([]);
  });

  it('answers one change set, and 404 for another zone or user', async () => {
    const [latest] = await history();
    expect(await json(t.request('GET', `${Z}/changes/${latest.id}`))).toEqual(latest);
    expect((await t.request('GET', `${Z}/changes/999999`)).status).toBe(404);
    const bob = await t.user('bob');
    expect((await t.request('GET', `${Z}/changes`, { token: bob })).status).toBe(404);
  });
});

describe('PATCH /domains/:name/rrsets', () => {
  it('applies REPLACE, ADD, REMOVE and DELETE as one change set with one serial bump', async () => {
    await patch([
      { name: 'www', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['192.0.2.1', '192.0.2.2'] },
      { name: 'mail', record_type: 'MX', changetype: 'ADD', records: ['10 mx1.example.net', '20 mx2.example.net'] },
      { name: 'old', record_type: 'TXT', changetype: 'ADD', records: ['bye'] },
    ]);
    const before = await serial();
    const res = await patch(
      [
        { name: 'www', record_type: 'A', changetype: 'ADD', records: ['192.0.2.2', '192.0.2.3'] },
        { name: 'www', record_type: 'A', changetype: 'REMOVE', records: ['192.0.2.1', '192.0.2.99'] },
        { name: 'mail', record_type: 'MX', ttl: 600, changetype: 'REPLACE', records: ['10 mx1.example.net'] },
        { name: 'old', record_type: 'TXT', changetype: 'DELETE' },
      ],
      { comment: 'tidy up' },
    );
    expect(res.status).toBe(200);
    const cs = await res.json();
    expect(cs).toMatchObject({ id: expect.any(Number), serial_before: before, comment: 'tidy up', source: 'api' });
    expect(await serial()).toBe(cs.serial_after);
    expect(cs.serial_after).toBeGreaterThan(before);
    expect(await records()).toEqual(expect.arrayContaining(['www 300 A 192.0.2.2', 'www 300 A 192.0.2.3', 'mail 600 MX 10 mx1.example.net']));
    expect((await records()).filter((r) => r.startsWith('old') || r.includes('192.0.2.1 ') || r.endsWith('192.0.2.1'))).toEqual([]);
    expect(cs.removed.map((r: { content: string }) => r.content).sort()).toEqual(['10 mx1.example.net', '192.0.2.1', '20 mx2.example.net', 'bye']);
  });

  it('lets a CNAME replace an A set at one name in one request', async () => {
    await patch([{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] }]);
    const res = await patch([
      { name: 'www', record_type: 'A', changetype: 'DELETE' },
      { name: 'www', record_type: 'CNAME', changetype: 'REPLACE', records: ['cdn.example.net.'] },
    ]);
    expect(res.status).toBe(200);
    expect((await records()).filter((r) => r.startsWith('www '))).toEqual(['www 3600 CNAME cdn.example.net']);
  });

  it('refuses the whole request when one entry is bad, naming its position', async () => {
    const before = await records();
    const s = await serial();
    const res = await patch([
      { name: 'ok', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
      { name: 'bad', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1', '300.1.1.1'] },
      { name: 'x', record_type: 'A', changetype: 'UPSERT', records: [] },
      { name: 'a..b', record_type: 'NOPE', changetype: 'ADD', records: ['x'] },
    ]);
    expect(res.status).toBe(400);
    const { fields } = (await res.json()).error;
    expect(Object.keys(fields).sort()).toEqual(['rrsets.2.changetype']);
    const res2 = await patch([
      { name: 'ok', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
      { name: 'bad', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1', '300.1.1.1'] },
      { name: 'a..b', record_type: 'NOPE', changetype: 'ADD', records: ['x'] },
      { name: '@', record_type: 'NS', changetype: 'REPLACE', records: ['ns.evil.example'] },
    ]);
    expect(res2.status).toBe(400);
    expect(Object.keys((await res2.json()).error.fields).sort()).toEqual(['rrsets.1.records.1', 'rrsets.2.name', 'rrsets.2.record_type', 'rrsets.3.record_type']);
    expect(await records()).toEqual(before);
    expect(await serial()).toBe(s);
  });

  it('refuses a zone that would break CNAME exclusivity with 409 naming the entry', async () => {
    const res = await patch([
      { name: 'a', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
      { name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
      { name: 'www', record_type: 'CNAME', changetype: 'REPLACE', records: ['cdn.example.net'] },
    ]);
    expect(res.status).toBe(409);
    expect((await res.json()).error.fields).toEqual({ 'rrsets.2': expect.stringMatching(/CNAME must be the only record/) });
    expect((await records()).some((r) => r.startsWith('a '))).toBe(false);
  });

  it('previews with ?dry_run=true: the change set with id null, nothing changed', async () => {
    const s = await serial();
    const res = await patch([{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] }], { query: '?dry_run=true' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: null, serial_before: s, added: [{ name: 'www', content: '192.0.2.1' }] });
    expect(await serial()).toBe(s);
    expect((await records()).some((r) => r.startsWith('www'))).toBe(false);
    expect((await history()).length).toBe(1);
  });

  it('is a no-op, with no serial bump, when nothing changes', async () => {
    await patch([{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] }]);
    const s = await serial();
    const cs = await json(patch([{ name: 'www', record_type: 'A', changetype: 'ADD', records: ['192.0.2.1'] }]));
    expect(cs).toMatchObject({ id: null, serial_before: s, serial_after: s, added: [], removed: [] });
    expect(await serial()).toBe(s);
  });
});

describe('If-Match and dry runs on every write', () => {
  it('GET /domains/:name carries the serial as its ETag; a stale If-Match is 412 and changes nothing', async () => {
    const res = await t.request('GET', Z);
    const tag = res.headers.get('etag')!;
    expect(tag).toBe(`"${(await res.json()).serial_number}"`);
    const ok = await t.request('POST', `${Z}/records`, { body: { name: 'a', record_type: 'A', content: '192.0.2.1' }, headers: { 'if-match': tag } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe(`"${await serial()}"`);
    for (const [method, path, body] of [
      ['POST', `${Z}/records`, { name: 'b', record_type: 'A', content: '192.0.2.1' }],
      ['PUT', Z, { minimum_ttl: 60 }],
      ['PATCH', `${Z}/rrsets`, { rrsets: [{ name: 'c', record_type: 'A', changetype: 'ADD', records: ['192.0.2.1'] }] }],
      ['DELETE', Z, undefined],
    ] as const) {
      const stale = await t.request(method, path, { body, headers: { 'if-match': tag } });
      expect(stale.status).toBe(412);
      expect((await stale.json()).error).toMatchObject({ code: 'precondition_failed', fields: { 'If-Match': expect.stringMatching(/serial/) } });
    }
    expect((await records()).filter((r) => /^[bc] /.test(r))).toEqual([]);
    expect((await t.request('GET', Z)).status).toBe(200);
    const bad = await t.request('PUT', Z, { body: { minimum_ttl: 60 }, headers: { 'if-match': 'yesterday' } });
    expect((await bad.json()).error.fields).toHaveProperty('If-Match');
    // Quotes are optional, and * matches any serial.
    expect((await t.request('PUT', Z, { body: { minimum_ttl: 120 }, headers: { 'if-match': String(await serial()) } })).status).toBe(200);
    expect((await t.request('PUT', Z, { body: { minimum_ttl: 180 }, headers: { 'if-match': '*' } })).status).toBe(200);
  });

  it('two writers with the same If-Match: exactly one succeeds, the other gets 412', async () => {
    const tag = (await t.request('GET', Z)).headers.get('etag')!;
    const results = await Promise.all(
      ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'].map((content, i) => t.request('POST', `${Z}/records`, { body: { name: `w${i}`, record_type: 'A', content }, headers: { 'if-match': tag } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    expect((await records()).filter((r) => r.startsWith('w')).length).toBe(1);
  });

  it('previews record writes, SOA changes and deletes with ?dry_run=true', async () => {
    const rec = await json(t.request('POST', `${Z}/records`, { body: { name: 'a', record_type: 'A', content: '192.0.2.1' } }));
    const s = await serial();
    const create = await json(t.request('POST', `${Z}/records?dry_run=true`, { body: { name: 'b', record_type: 'A', content: '192.0.2.9' } }));
    expect(create).toMatchObject({ id: null, added: [{ name: 'b', content: '192.0.2.9' }] });
    const upd = await json(t.request('PUT', `${Z}/records/${rec.id}?dry_run=true`, { body: { content: '192.0.2.5' } }));
    expect(upd).toMatchObject({ id: null, removed: [{ content: '192.0.2.1' }], added: [{ content: '192.0.2.5' }] });
    const del = await json(t.request('DELETE', `${Z}/records/${rec.id}?dry_run=true`));
    expect(del).toMatchObject({ id: null, removed: [{ name: 'a' }] });
    const soa = await json(t.request('PUT', `${Z}?dry_run=true`, { body: { minimum_ttl: 300 } }));
    expect(soa).toMatchObject({ id: null, settings: { minimum_ttl: [3600, 300] } });
    expect(await serial()).toBe(s);
    expect(await records()).toContain('a 3600 A 192.0.2.1');
    expect((await t.request('PUT', `${Z}?dry_run=maybe`, { body: { minimum_ttl: 300 } })).status).toBe(400);
  });
});

describe('revert', () => {
  it('applies the inverse as a new change set, which can itself be reverted', async () => {
    await patch([{ name: 'www', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['192.0.2.1'] }]);
    const before = await records();
    const change = await json(
      patch([
        { name: 'www', record_type: 'A', ttl: '600', changetype: 'REPLACE', records: ['192.0.2.1', '192.0.2.2'] },
        { name: 'txt', record_type: 'TXT', changetype: 'ADD', records: ['hello'] },
      ]),
    );
    await t.request('PUT', Z, { body: { minimum_ttl: 900 } });
    const preview = await json(t.request('POST', `${Z}/changes/${change.id}/revert?dry_run=true`));
    expect(preview).toMatchObject({ id: null, source: 'revert' });
    expect(await records()).not.toEqual(before);

    const res = await t.request('POST', `${Z}/changes/${change.id}/revert`);
    expect(res.status).toBe(200);
    const revert = await res.json();
    expect(revert).toMatchObject({ source: 'revert', comment: `revert of change ${change.id}` });
    // The records as before, but the apex NS set, whose TTL followed the new minimum_ttl (a later change, not reverted).
    expect(await records()).toEqual(before.map((r) => r.replace(/^@ 3600 NS /, '@ 900 NS ')));
    expect((await json(t.request('GET', Z))).minimum_ttl).toBe(900);

    const again = await t.request('POST', `${Z}/changes/${revert.id}/revert`, { body: { comment: 'put it back' } });
    expect((await again.json()).comment).toBe('put it back');
    expect(await records()).toEqual(expect.arrayContaining(['www 600 A 192.0.2.2', 'txt 3600 TXT hello']));
  });

  it('is a 409 naming the RRsets that changed since, and applies nothing', async () => {
    const change = await json(
      patch([
        { name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
        { name: 'api', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.7'] },
      ]),
    );
    await patch([{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.5'] }]);
    const before = await records();
    const s = await serial();
    const res = await t.request('POST', `${Z}/changes/${change.id}/revert`);
    expect(res.status).toBe(409);
    const { error } = await res.json();
    expect(Object.keys(error.fields)).toEqual(['www A']);
    expect(error.message).toMatch(/www A/);
    expect(await records()).toEqual(before);
    expect(await serial()).toBe(s);
  });

  it('reverts SOA settings, and refuses the change that created the zone', async () => {
    const cs = await json(t.request('PUT', `${Z}?dry_run=false`, { body: { refresh_interval: 7200, retry_interval: 900 } }));
    const { id } = (await history())[0];
    expect(cs.refresh_interval).toBe(7200);
    await t.request('POST', `${Z}/changes/${id}/revert`);
    expect(await json(t.request('GET', Z))).toMatchObject({ refresh_interval: 10800, retry_interval: 3600 });
    const created = (await history()).at(-1);
    expect((await t.request('POST', `${Z}/changes/${created.id}/revert`)).status).toBe(409);
  });
});
