/**
 * Pools through the API: made, changed, removed and reverted as change sets, their answer written as
 * the zone's A/AAAA set, that set refused to every other writer, bad input named field by field with
 * nothing changed, and the per-user limit. Runs on SQLite and on PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
const Z = '/api/v1/domains/example.com';

const api = async (method: string, url: string, body?: unknown, token?: string) => {
  const res = await t.request(method, url, { body, ...(token ? { token } : {}) });
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
};
const served = async () =>
  (await api('GET', `${Z}/records?name=www`)).body
    .filter((r: { record_type: string }) => r.record_type === 'A')
    .map((r: { content: string; ttl: string }) => `${r.ttl} ${r.content}`)
    .sort();
const serial = async () => (await api('GET', Z)).body.serial_number as number;

const POOL = {
  name: 'www',
  type: 'A',
  ttl: 30,
  policy: 'failover',
  members: [
    { address: '192.0.2.1', priority: 1 },
    { address: '192.0.2.2', priority: 2 },
    { address: '192.0.2.3', priority: 2 },
  ],
  check: { kind: 'http', path: '/health' },
};

beforeEach(async () => {
  t = await createTestApp({ MAX_POOLS_PER_USER: '2' });
  await t.user('alice');
  expect((await api('POST', '/api/v1/domains', { name: 'example.com' })).status).toBe(201);
});
afterEach(async () => {
  await t.close();
});

describe('pools', () => {
  it('answers the best priority while no member is judged down, with its defaults, and shows it in history', async () => {
    const made = await api('POST', `${Z}/pools`, POOL);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'www',
      fqdn: 'www.example.com',
      type: 'A',
      ttl: 30,
      policy: 'failover',
      fallback: 'all',
      check: { kind: 'http', port: 80, path: '/health', host: null, expect_status: [200, 399], tls_verify: true, interval_s: 10, timeout_ms: 2000, failures: 3, successes: 2 },
      answer: ['192.0.2.1'],
    });
    expect(made.body.members.map((m: { state: string }) => m.state)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(await served()).toEqual(['30 192.0.2.1']);
    const [change] = (await api('GET', `${Z}/changes`)).body;
    expect(change.settings.pools).toBeDefined();
    expect(change.added).toEqual([{ name: 'www', record_type: 'A', ttl: '30', content: '192.0.2.1' }]);

    expect((await api('GET', `${Z}/pools`)).body.map((p: { id: number }) => p.id)).toEqual([made.body.id]);
    expect((await api('GET', `${Z}/pools/www`)).body.id).toBe(made.body.id);
    expect((await api('GET', `${Z}/pools/${made.body.id}`)).body.name).toBe('www');
    expect((await api('GET', `${Z}/pools/nope`)).status).toBe(404);
  });

  it('takes the name over from plain records, and its set is refused to every other writer', async () => {
    await api('POST', `${Z}/records`, { name: 'www', record_type: 'A', content: '198.51.100.7' });
    await api('POST', `${Z}/pools`, { ...POOL, policy: 'all-healthy' });
    expect(await served()).toEqual(['30 192.0.2.1', '30 192.0.2.2', '30 192.0.2.3']);
    const before = await serial();
    const add = await api('POST', `${Z}/records`, { name: 'www', record_type: 'A', content: '198.51.100.8' });
    expect(add.status).toBe(409);
    expect(add.body.error.message).toContain('answered by the health-checked pool www');
    const patch = await api('PATCH', `${Z}/rrsets`, { rrsets: [{ name: 'www', record_type: 'A', changetype: 'DELETE' }] });
    expect(patch.status).toBe(409);
    expect(await serial()).toBe(before);
    // Other types at the name are the zone's as before.
    expect((await api('POST', `${Z}/records`, { name: 'www', record_type: 'TXT', content: 'hello' })).status).toBe(200);
  });

  it('changes the fields sent, keeps name and type, and a removal takes its addresses', async () => {
    const { body: pool } = await api('POST', `${Z}/pools`, POOL);
    const changed = await api('PUT', `${Z}/pools/${pool.id}`, { ttl: 60, members: [{ address: '192.0.2.9' }] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ ttl: 60, answer: ['192.0.2.9'], check: { kind: 'http', path: '/health' } });
    expect(await served()).toEqual(['60 192.0.2.9']);
    const renamed = await api('PUT', `${Z}/pools/${pool.id}`, { name: 'web' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error.fields).toHaveProperty('name');

    expect((await api('DELETE', `${Z}/pools/www`)).status).toBe(204);
    expect(await served()).toEqual([]);
    expect((await api('GET', `${Z}/pools`)).body).toEqual([]);
  });

  it('is reverted like any change: the pool and its addresses go, and come back', async () => {
    const { body: pool } = await api('POST', `${Z}/pools`, POOL);
    const [made] = (await api('GET', `${Z}/changes`)).body;
    const undo = await api('POST', `${Z}/changes/${made.id}/revert`);
    expect(undo.status).toBe(200);
    expect((await api('GET', `${Z}/pools`)).body).toEqual([]);
    expect(await served()).toEqual([]);
    expect((await api('POST', `${Z}/changes/${undo.body.id}/revert`)).status).toBe(200);
    expect((await api('GET', `${Z}/pools/${pool.id}`)).body.answer).toEqual(['192.0.2.1']);
    expect(await served()).toEqual(['30 192.0.2.1']);
  });

  it('previews with a dry run, storing nothing', async () => {
    const before = await serial();
    const preview = await api('POST', `${Z}/pools?dry_run=true`, POOL);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ id: null, added: [{ name: 'www', record_type: 'A', content: '192.0.2.1' }] });
    expect(await serial()).toBe(before);
    expect((await api('GET', `${Z}/pools`)).body).toEqual([]);
  });

  it('names every bad field and changes nothing', async () => {
    const before = await serial();
    const cases: [unknown, string][] = [
      [{ ...POOL, members: [{ address: '192.0.2.300' }] }, 'members.0.address'],
      [{ ...POOL, type: 'AAAA' }, 'members.0.address'],
      [{ ...POOL, members: [{ address: '10.0.0.1' }] }, 'members.0.address'],
      [{ ...POOL, members: [{ address: '127.0.0.1' }] }, 'members.0.address'],
      [{ ...POOL, members: [{ address: '192.0.2.1' }, { address: '192.0.2.1' }] }, 'members.1.address'],
      [{ ...POOL, members: [] }, 'members'],
      [{ ...POOL, check: { kind: 'http', interval_s: 5 } }, 'check.interval_s'],
      [{ ...POOL, check: { kind: 'http', timeout_ms: 50 } }, 'check.timeout_ms'],
      [{ ...POOL, check: { kind: 'tcp' } }, 'check.port'],
      [{ ...POOL, check: { kind: 'http', path: 'health' } }, 'check.path'],
      [{ ...POOL, check: { kind: 'http', expect_status: [500, 200] } }, 'check.expect_status'],
      [{ ...POOL, check: { kind: 'ftp' } }, 'check.kind'],
      [{ ...POOL, policy: 'random' }, 'policy'],
      [{ ...POOL, ttl: -1 }, 'ttl'],
      [{ ...POOL, colour: 'blue' }, 'colour'],
      [{ ...POOL, name: 'bad name!' }, 'name'],
      [{ ...POOL, check: undefined }, 'check.kind'],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', `${Z}/pools`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.error.fields), JSON.stringify(body)).toContain(field);
    }
    expect(await serial()).toBe(before);
    expect((await api('GET', `${Z}/pools`)).body).toEqual([]);
  });

  it('keeps one pool per name and type, and MAX_POOLS_PER_USER across the owner’s zones', async () => {
    expect((await api('POST', `${Z}/pools`, POOL)).status).toBe(201);
    expect((await api('POST', `${Z}/pools`, POOL)).status).toBe(409);
    expect((await api('POST', `${Z}/pools`, { ...POOL, type: 'AAAA', members: [{ address: '2001:db8::1' }] })).status).toBe(201);
    // Both names now: the pool is named by its type too.
    expect((await api('GET', `${Z}/pools/www`)).status).toBe(404);
    expect((await api('GET', `${Z}/pools/www%2FAAAA`)).body.type).toBe('AAAA');
    const third = await api('POST', `${Z}/pools`, { ...POOL, name: 'api' });
    expect(third.status).toBe(403);
    expect(third.body.error.message).toContain('MAX_POOLS_PER_USER');
  });

  it('exports its answer with a comment naming it; importing the export again changes nothing, and the search finds it', async () => {
    await api('POST', `${Z}/pools`, POOL);
    const file = await (await t.request('GET', `${Z}/zone`)).text();
    expect(file).toMatch(/; health-checked pool \(failover, http checks of 192\.0\.2\.1, 192\.0\.2\.2, 192\.0\.2\.3\)[^\n]*\nwww\t30\tIN\tA\t192\.0\.2\.1\n/);
    const before = await serial();
    const again = await t.request('POST', `${Z}/zone`, { raw: file, headers: { 'content-type': 'text/dns' } });
    expect(again.status).toBe(200);
    expect(await serial()).toBe(before);
    const changed = await t.request('POST', `${Z}/zone`, { raw: file.replace('192.0.2.1\n', '198.51.100.1\n'), headers: { 'content-type': 'text/dns' } });
    expect(changed.status).toBe(409);
    expect(await serial()).toBe(before);
    const found = (await api('GET', '/api/v1/records?q=192.0.2.1')).body as { fqdn: string; record_type: string }[];
    expect(found.map((r) => `${r.fqdn} ${r.record_type}`)).toContain('www.example.com A');
  });

  it('shows in the PowerDNS API as an RRset with a comment saying so, and refuses a PATCH of it', async () => {
    await api('POST', `${Z}/pools`, POOL);
    const key = (await t.services.accounts.createToken((await t.services.store.users.byUsername('alice'))!.id, 'pdns')).token;
    const pdns = (method: string, body?: unknown) => t.request(method, '/api/v1/servers/localhost/zones/example.com.', { token: null, body, headers: { 'x-api-key': key } });
    const zone = (await (await pdns('GET')).json()) as { rrsets: { name: string; type: string; records: { content: string }[]; comments: { content: string; account: string }[] }[] };
    const www = zone.rrsets.find((r) => r.name === 'www.example.com.' && r.type === 'A')!;
    expect(www.records.map((r) => r.content)).toEqual(['192.0.2.1']);
    expect(www.comments[0]).toMatchObject({ account: 'zonedeck', content: expect.stringContaining('health-checked pool (failover)') });
    const before = await serial();
    const res = await pdns('PATCH', { rrsets: [{ name: 'www.example.com.', type: 'A', ttl: 30, changetype: 'REPLACE', records: [{ content: '198.51.100.1', disabled: false }] }] });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await serial()).toBe(before);
  });

  it("is another user's zone's business only: 404", async () => {
    await api('POST', `${Z}/pools`, POOL);
    const bob = await t.user('bob');
    expect((await api('GET', `${Z}/pools`, undefined, bob)).status).toBe(404);
    expect((await api('POST', `${Z}/pools`, { ...POOL, name: 'x' }, bob)).status).toBe(404);
    expect((await api('DELETE', `${Z}/pools/www`, undefined, bob)).status).toBe(404);
  });
});
