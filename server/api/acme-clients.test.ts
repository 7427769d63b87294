/**
 * What ACME clients of this API send: `ttl` as a JSON number, and the
 * certificate's name in the path — a name inside one of the user's zones — with record
 * names relative to it. Runs on SQLite and on PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
});
afterEach(() => t.close());

const challenge = { name: '_acme-challenge', record_type: 'TXT', content: 'gfj9Xq-token', ttl: 60 };

describe('ttl as a JSON number', () => {
  it('is accepted and answered as a string', async () => {
    const res = await t.request('POST', '/api/v1/domains/example.com/records', { body: challenge });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: '_acme-challenge', ttl: '60', fqdn: '_acme-challenge.example.com' });
  });

  it('must still be a whole number in range', async () => {
    for (const ttl of [1.5, -1, 2147483648, 1e21]) {
      const res = await t.request('POST', '/api/v1/domains/example.com/records', { body: { ...challenge, ttl } });
      expect(res.status).toBe(400);
      expect((await res.json()).error.fields.ttl).toMatch(/whole number of seconds/);
    }
    const res = await t.request('POST', '/api/v1/domains/example.com/records', { body: { ...challenge, ttl: true } });
    expect((await res.json()).error.fields.ttl).toMatch(/whole number of seconds/);
    expect(await (await t.request('GET', '/api/v1/domains/example.com/records?record_type=TXT')).json()).toEqual([]);
  });

  it('works on update too', async () => {
    const { id } = await (await t.request('POST', '/api/v1/domains/example.com/records', { body: challenge })).json();
    const res = await t.request('PUT', `/api/v1/domains/example.com/records/${id}`, { body: { ttl: 120 } });
    expect(await res.json()).toMatchObject({ ttl: '120' });
  });
});

describe('a record endpoint at a name inside the zone', () => {
  it('creates the record relative to that name, in the enclosing zone', async () => {
    const res = await t.request('POST', '/api/v1/domains/www.example.com/records', { body: challenge });
    expect(res.status).toBe(200);
    const rec = await res.json();
    expect(rec).toMatchObject({ name: '_acme-challenge', fqdn: '_acme-challenge.www.example.com', ttl: '60' });
    const inZone = await (await t.request('GET', '/api/v1/domains/example.com/records?record_type=TXT')).json();
    expect(inZone).toEqual([expect.objectContaining({ id: rec.id, name: '_acme-challenge.www' })]);
  });

  it('lists the records at or below that name, and deletes by id from the same path', async () => {
    await t.request('POST', '/api/v1/domains/example.com/records', { body: { name: 'mail', record_type: 'A', content: '192.0.2.25' } });
    const { id } = await (await t.request('POST', '/api/v1/domains/www.example.com/records', { body: challenge })).json();
    await t.request('POST', '/api/v1/domains/www.example.com/records', { body: { name: '@', record_type: 'A', content: '192.0.2.80' } });
    const below = await (await t.request('GET', '/api/v1/domains/www.example.com/records')).json();
    expect(below.map((r: { fqdn: string }) => r.fqdn).sort()).toEqual(['_acme-challenge.www.example.com', 'www.example.com']);
    expect(below.find((r: { fqdn: string }) => r.fqdn === 'www.example.com').name).toBe('@');
    const filtered = await (await t.request('GET', '/api/v1/domains/www.example.com/records?name=_acme-challenge')).json();
    expect(filtered).toHaveLength(1);

    // A record outside the name asked for is not reachable from it.
    const mail = (await (await t.request('GET', '/api/v1/domains/example.com/records?name=mail')).json())[0];
    expect((await t.request('DELETE', `/api/v1/domains/www.example.com/records/${mail.id}`)).status).toBe(404);

    const del = await t.request('DELETE', `/api/v1/domains/www.example.com/records/${id}`);
    expect(del.status).toBe(200);
    expect(await (await t.request('GET', '/api/v1/domains/example.com/records?record_type=TXT')).json()).toEqual([]);
  });

  it('accepts a trailing dot and a wildcard certificate name', async () => {
    const a = await t.request('POST', '/api/v1/domains/www.example.com./records', { body: challenge });
    expect((await a.json()).fqdn).toBe('_acme-challenge.www.example.com');
    const b = await t.request('POST', `/api/v1/domains/${encodeURIComponent('*.example.com')}/records`, { body: challenge });
    expect((await b.json()).fqdn).toBe('_acme-challenge.example.com');
  });

  it('takes the closest enclosing zone of the user', async () => {
    await t.request('POST', '/api/v1/domains', { body: { name: 'dev.example.com' } });
    await t.request('POST', '/api/v1/domains/a.dev.example.com/records', { body: challenge });
    const dev = await (await t.request('GET', '/api/v1/domains/dev.example.com/records?record_type=TXT')).json();
    expect(dev).toEqual([expect.objectContaining({ name: '_acme-challenge.a', fqdn: '_acme-challenge.a.dev.example.com' })]);
  });

  it("is 404 outside the user's zones, and for another user's zone", async () => {
    expect((await t.request('POST', '/api/v1/domains/www.example.org/records', { body: challenge })).status).toBe(404);
    const bob = await t.user('bob');
    const res = await t.request('POST', '/api/v1/domains/www.example.com/records', { body: challenge, token: bob });
    expect(res.status).toBe(404);
  });

  it('keeps GET/PUT/DELETE /domains/:name to the exact zone name', async () => {
    expect((await t.request('GET', '/api/v1/domains/www.example.com')).status).toBe(404);
    expect((await t.request('DELETE', '/api/v1/domains/www.example.com')).status).toBe(404);
  });
});

describe('control characters and unpaired surrogates', () => {
  it('are refused in every field, naming it, and nothing is stored', async () => {
    for (const content of ['a\u0000b', 'tab\there', '\ud800']) {
      const res = await t.request('POST', '/api/v1/domains/example.com/records', { body: { ...challenge, content } });
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).error.fields)).toEqual(['content']);
    }
    const name = await t.request('POST', '/api/v1/domains', { body: { name: 'bad\u0001.example' } });
    expect((await name.json()).error.fields).toHaveProperty('name');
    const query = await t.request('GET', '/api/v1/domains?search=%00');
    expect(query.status).toBe(400);
    expect((await query.json()).error.fields).toHaveProperty('search');
    expect(await (await t.request('GET', '/api/v1/domains/example.com/records?record_type=TXT')).json()).toEqual([]);
  });
});
