/**
 * Templates are account settings: a token with any scope (the README's ACME token, a read-only
 * or an address-bound one) may not create, change or delete one, personal or team, since its
 * owner's next apply would write the token's records into zones the token could never touch. And a
 * template never writes the apex NS set, the service's: refused when saved, whatever spells the
 * apex, and when a variable brings a name to the apex at apply or at a zone's creation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScopeInput } from '../../core/scope';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  for (const name of ['one.example', 'acme.example']) expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name } })).status).toBe(201);
  expect((await t.request('POST', '/api/v1/teams', { token: alice, body: { name: 'ops' } })).status).toBe(201);
});
afterAll(() => t.close());

async function scoped(scope: ScopeInput): Promise<string> {
  const res = await t.request('POST', '/api/v1/tokens', { token: alice, body: { label: 'scoped', scope } });
  expect(res.status).toBe(201);
  return (await res.json()).token;
}

const www = (name: string, team?: string) => ({ name, ...(team ? { team } : {}), rrsets: [{ name: 'www', record_type: 'A', records: ['192.0.2.1'] }] });
const templates = async () =>
  ((await (await t.request('GET', '/api/v1/templates', { token: alice })).json()) as Array<{ id: number; name: string; rrsets: Array<{ name: string; records: string[] }> }>).map(
    (x) => `${x.name}: ${x.rrsets.map((r) => `${r.name} ${r.records.join(',')}`).join('; ')}`,
  );

describe('a scoped credential and templates', () => {
  it('answers 403 to a token with any scope that creates, changes or deletes a template, personal or team, and changes nothing', async () => {
    const own = (await (await t.request('POST', '/api/v1/templates', { token: alice, body: www('own') })).json()).id as number;
    const team = (await (await t.request('POST', '/api/v1/templates', { token: alice, body: www('shared', 'ops') })).json()).id as number;
    const before = await templates();
    const scopes: ScopeInput[] = [
      { zones: ['acme.example'], names: ['_acme-challenge'], types: ['TXT'] },
      { zones: ['acme.example'] },
      { names: ['www'] },
      { types: ['A'] },
      { read_only: true },
      { allowed_ips: ['0.0.0.0/0', '::/0'] },
    ];
    for (const scope of scopes) {
      const token = await scoped(scope);
      const what = JSON.stringify(scope);
      // From an address the allowed_ips scope admits: the token is refused for what it asks, not where from.
      const address = '192.0.2.9';
      const create = await t.request('POST', '/api/v1/templates', { token, address, body: www('sneaky') });
      expect(create.status, what).toBe(403);
      expect((await create.json()).error.message, what).toMatch(/scope|read-only/);
      expect((await t.request('POST', '/api/v1/templates', { token, address, body: www('sneaky', 'ops') })).status, what).toBe(403);
      expect((await t.request('POST', '/api/v1/templates', { token, address, body: { name: 'copy', from_zone: 'acme.example' } })).status, what).toBe(403);
      for (const id of [own, team]) {
        expect((await t.request('PUT', `/api/v1/templates/${id}`, { token, address, body: { rrsets: [{ name: 'www', record_type: 'A', records: ['203.0.113.66'] }] } })).status, what).toBe(403);
        expect((await t.request('DELETE', `/api/v1/templates/${id}`, { token, address })).status, what).toBe(403);
      }
      // Reading stays allowed: the token's owner may still see what it would apply.
      expect((await t.request('GET', `/api/v1/templates/${own}`, { token, address })).status, what).toBe(200);
    }
    expect(await templates()).toEqual(before);
    // The same requests with the unrestricted token work.
    expect((await t.request('PUT', `/api/v1/templates/${own}`, { token: alice, body: { description: 'mine' } })).status).toBe(200);
    expect((await t.request('DELETE', `/api/v1/templates/${team}`, { token: alice })).status).toBe(200);
  });
});

describe('the apex NS set and templates', () => {
  it('refuses a template whose NS set stands at the apex, however the apex is written, naming the RRset', async () => {
    for (const name of ['@', '', '{zone}.', ' {zone}. ']) {
      const body = {
        name: 'ns',
        rrsets: [
          { name: 'www', record_type: 'A', records: ['192.0.2.1'] },
          { name, record_type: 'NS', records: ['ns.attacker.example.'] },
        ],
      };
      const res = await t.request('POST', '/api/v1/templates', { token: alice, body });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(Object.keys((await res.json()).error.fields), JSON.stringify(name)).toContain('rrsets.1.record_type');
    }
    // The SOA is no record a template (or anything else) may hold.
    const soa = await t.request('POST', '/api/v1/templates', {
      token: alice,
      body: { name: 'soa', rrsets: [{ name: '@', record_type: 'SOA', records: ['ns.attacker.example. h.attacker.example. 1 2 3 4 5'] }] },
    });
    expect(soa.status).toBe(400);
    expect(Object.keys((await soa.json()).error.fields)).toContain('rrsets.0.record_type');
    // A delegation below the apex is an ordinary RRset.
    expect((await t.request('POST', '/api/v1/templates', { token: alice, body: { name: 'delegation', rrsets: [{ name: 'sub', record_type: 'NS', records: ['ns1.example.net.'] }] } })).status).toBe(
      201,
    );
    expect((await templates()).some((x) => x.startsWith('ns:'))).toBe(false);
  });

  it('refuses a variable that brings an NS set to the apex, at apply and at a zone created from the template, writing nothing', async () => {
    const res = await t.request('POST', '/api/v1/templates', { token: alice, body: { name: 'host-ns', rrsets: [{ name: '{host}', record_type: 'NS', records: ['ns.attacker.example.'] }] } });
    expect(res.status).toBe(201);
    const id = (await res.json()).id as number;
    const ns = async (zone: string) =>
      ((await (await t.request('GET', `/api/v1/domains/${zone}/records?record_type=NS`, { token: alice })).json()) as Array<{ content: string }>).map((r) => r.content).sort();
    const before = await ns('one.example');
    for (const host of ['@', 'one.example.']) {
      for (const dry of [true, false]) {
        const apply = await t.request('POST', `/api/v1/templates/${id}/apply${dry ? '?dry_run=true' : ''}`, { token: alice, body: { zones: ['one.example'], variables: { host } } });
        expect(apply.status, host).toBe(400);
        expect(Object.keys((await apply.json()).error.fields).join(' '), host).toContain('rrsets.0.name');
      }
    }
    expect(await ns('one.example')).toEqual(before);
    const created = await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'new.example', template: id, variables: { host: '@' } } });
    expect(created.status).toBe(400);
    expect(Object.keys((await created.json()).error.fields).join(' ')).toContain('rrsets.0.name');
    expect((await t.request('GET', '/api/v1/domains/new.example', { token: alice })).status).toBe(404);
    // Below the apex the same template delegates, as it should.
    expect((await t.request('POST', `/api/v1/templates/${id}/apply`, { token: alice, body: { zones: ['one.example'], variables: { host: 'lab' } } })).status).toBe(200);
  });
});
