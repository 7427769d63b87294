/**
 * Every credential is a boundary, judged on the zone row the handler acts
 * on. A path's zone becomes a row through one function (server/api/zones/scope.ts, server/pdns/scope.ts);
 * a scope limited to names or types changes records only, on every path; a delegation or DNAME
 * needs the subtree. Runs on SQLite and, in the "postgres" project, on PostgreSQL.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScopeInput } from '../core/scope';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let alice: string;
beforeAll(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  for (const name of ['alice1.test', 'alice2.test', 'matrix.test']) {
    expect((await t.request('POST', '/api/v1/domains', { body: { name } })).status).toBe(201);
  }
  for (const [zone, name] of [
    ['alice2.test', 'www'],
    ['alice2.test', 'a.sub'],
    ['matrix.test', 'www'],
  ] as const) {
    const res = await t.request('POST', `/api/v1/domains/${zone}/records`, { body: { name, record_type: 'A', content: '192.0.2.1', ttl: '300' } });
    expect(res.status).toBe(200);
  }
});
afterAll(() => t.close());

async function scoped(scope: ScopeInput): Promise<string> {
  const res = await t.request('POST', '/api/v1/tokens', { token: alice, body: { label: 'scoped', scope } });
  expect(res.status).toBe(201);
  return (await res.json()).token;
}

/** What a user would check after an attack: the zone is there, at the same serial, with the same records and settings. */
async function snapshot(zone: string) {
  const d = await t.request('GET', `/api/v1/domains/${zone}`, { token: alice });
  const r = await t.request('GET', `/api/v1/domains/${zone}/records?per_page=500`, { token: alice });
  return { status: d.status, domain: d.status === 200 ? await d.json() : null, records: r.status === 200 ? await r.json() : null };
}

const pdns = (token: string, method: string, path: string, body?: unknown) =>
  t.request(method, `/api/v1/servers/localhost/zones${path}`, { token: null, headers: { 'X-API-Key': token }, ...(body === undefined ? {} : { body }) });

describe('a path names a zone through one function, and the scope is judged on that row', () => {
  const spellings = [
    'alice%EF%BC%92.test', // fullwidth digit two
    'alice2%E3%80%82test', // ideographic full stop
    'alice2%EF%BC%8Etest', // fullwidth full stop
    '%20alice2.test',
    'alice2.test%20',
    'alice2.test..',
    'ali%C2%ADce2.test', // soft hyphen
    'alice2.te%C5%BFt', // long s
    'ALICE2.TEST.%E2%80%8B', // zero-width space
    'alice2.test%00',
    '%E2%80%8Balice2.test',
  ];

  it('odd spellings of another zone of the user are 404 for every credential, on v1 and PowerDNS paths alike', async () => {
    const only1 = await scoped({ zones: ['alice1.test'] });
    const before = await snapshot('alice2.test');
    for (const s of spellings) {
      for (const token of [only1, alice]) {
        for (const [method, suffix] of [
          ['GET', ''],
          ['GET', '/records'],
          ['GET', '/changes'],
          ['GET', '/zone'],
          ['PUT', ''],
          ['DELETE', ''],
        ] as const) {
          const res = await t.request(method, `/api/v1/domains/${s}${suffix}`, { token, ...(method === 'PUT' ? { body: { refresh_interval: 7200 } } : {}) });
          expect({ s, token: token === alice ? 'unrestricted' : 'scoped', method, suffix, status: res.status }).toMatchObject({ status: 404 });
        }
      }
      const id = s.replace(/%([0-9A-F]{2})/gi, '=$1');
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { dnssec: true }],
        ['DELETE', undefined],
      ] as const) {
        const res = await pdns(only1, method, `/${id}${id.endsWith('.') ? '' : '.'}`, body);
        expect({ id, method, status: res.status }).toMatchObject({ status: 404 });
      }
    }
    expect(await snapshot('alice2.test')).toEqual(before);
  });

  it('a token scoped to one zone reaches no other zone of its user, whatever the spelling (property)', async () => {
    const only1 = await scoped({ zones: ['alice1.test'] });
    const before = await snapshot('alice2.test');
    const noise = fc.constantFrom('', ' ', '\t', '.', '..', '\u00ad', '\u200b', '\u3002', '\uff0e', '\ufeff', 'ſ', '\uff12', 'A', 'É', '%', '%2e', '/', '\\');
    const spelling = fc
      .tuple(noise, fc.constantFrom('alice2', 'ALICE2', 'alice\uff12', 'alıce2'), noise, fc.constantFrom('.', '\u3002', '\uff0e', '\uff61'), fc.constantFrom('test', 'TEST', 'teſt'), noise)
      .map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(spelling, fc.constantFrom('', '/records', '/changes', '/zone'), async (name, suffix) => {
        const path = `/api/v1/domains/${encodeURIComponent(name)}${suffix}`;
        const scopedRes = await t.request('GET', path, { token: only1 });
        const fullRes = await t.request('GET', path, { token: alice });
        // The scope check and the handler agree: where the handler would act on alice2.test, the scope refuses.
        if (fullRes.status === 200) expect(scopedRes.status).toBe(403);
        else expect([403, 404]).toContain(scopedRes.status);
        expect([200, 404]).toContain(fullRes.status);
        if (fullRes.status === 200 && suffix === '') expect((await fullRes.json()).name).toBe('alice2.test');
        const del = await t.request('DELETE', `/api/v1/domains/${encodeURIComponent(name)}`, { token: only1 });
        expect([403, 404]).toContain(del.status);
        const id = [...new TextEncoder().encode(name)]
          .map((b) => (/[A-Za-z0-9.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`))
          .join('');
        const p = await pdns(only1, 'DELETE', `/${encodeURIComponent(id)}`);
        expect([403, 404]).toContain(p.status);
      }),
      { numRuns: 120 },
    );
    expect(await snapshot('alice2.test')).toEqual(before);
  });

  it('a token scoped to a name inside a zone (not a zone) lists nothing of that zone', async () => {
    const sub = await scoped({ zones: ['sub.alice2.test'] });
    const res = await t.request('GET', '/api/v1/domains/sub.alice2.test/records', { token: sub });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/does not include the zone alice2\.test/);
    expect((await t.request('GET', '/api/v1/domains/a.sub.alice2.test/records', { token: sub })).status).toBe(403);
    // The user's own token still reads records at that place.
    const own = await t.request('GET', '/api/v1/domains/sub.alice2.test/records', { token: alice });
    expect(own.status).toBe(200);
    expect((await own.json()).map((r: { name: string }) => r.name)).toEqual(['a']);
  });

  it('a canonical IDN spelling still names its zone', async () => {
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'bücher.test' } })).status).toBe(201);
    const res = await t.request('GET', `/api/v1/domains/${encodeURIComponent('bücher.test')}`);
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('xn--bcher-kva.test');
    expect((await t.request('GET', '/api/v1/domains/xn--bcher-kva.test.')).status).toBe(200);
    expect((await t.request('DELETE', '/api/v1/domains/xn--bcher-kva.test')).status).toBe(200);
  });
});

describe('a credential limited to names or types changes records only', () => {
  it('cannot revert DNSSEC off or on, rewrite SOA timers by import, or delete the zone; its records it may change', async () => {
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'signed.test', dnssec_enabled: true } })).status).toBe(201);
    const acme = await scoped({ names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] });
    const off = await t.request('PUT', '/api/v1/domains/signed.test', { token: alice, body: { dnssec_enabled: false } });
    expect(off.status).toBe(200);
    const on = await t.request('PUT', '/api/v1/domains/signed.test', { token: alice, body: { dnssec_enabled: true } });
    expect(on.status).toBe(200);
    const changes = await (await t.request('GET', '/api/v1/domains/signed.test/changes')).json();
    const before = await snapshot('signed.test');
    const keyBefore = before.domain.dnssec_ds ?? before.domain.ds ?? JSON.stringify(before.domain);
    for (const cs of changes.filter((c: { settings: object }) => 'dnssec_enabled' in c.settings)) {
      for (const dry of ['', '?dry_run=true']) {
        const res = await t.request('POST', `/api/v1/domains/signed.test/changes/${cs.id}/revert${dry}`, { token: acme });
        expect(res.status).toBe(403);
        expect((await res.json()).error.message).toMatch(/not the zone's settings \(dnssec_enabled\)/);
      }
    }
    const file = '$ORIGIN signed.test.\n@ 3600 IN SOA ns1.zonedeck.test. hostmaster.zonedeck.test. 1 7200 900 1209600 300\n_acme-challenge 60 IN TXT "token"\n';
    for (const mode of ['merge', 'replace']) {
      const res = await t.request('POST', `/api/v1/domains/signed.test/zone?mode=${mode}`, { token: acme, raw: file, headers: { 'content-type': 'text/dns' } });
      expect(res.status).toBe(403);
    }
    expect((await t.request('DELETE', '/api/v1/domains/signed.test', { token: acme })).status).toBe(403);
    expect((await pdns(acme, 'DELETE', '/signed.test.')).status).toBe(403);
    expect((await pdns(acme, 'PUT', '/signed.test.', { dnssec: false })).status).toBe(403);
    const keys = await (await pdns(alice, 'GET', '/signed.test./cryptokeys')).json();
    expect(keys.length).toBe(1);
    expect((await pdns(acme, 'DELETE', `/signed.test./cryptokeys/${keys[0].id}`)).status).toBe(403);
    const after = await snapshot('signed.test');
    expect(after).toEqual(before);
    expect(after.domain.dnssec_enabled).toBe(true);
    expect(after.domain.dnssec_ds ?? after.domain.ds ?? JSON.stringify(after.domain)).toEqual(keyBefore);
    // What it is for still works: a merge import of its own record alone, without SOA timers.
    const ok = await t.request('POST', '/api/v1/domains/signed.test/zone?mode=merge', {
      token: acme,
      raw: '_acme-challenge.signed.test. 60 IN TXT "token"\n',
      headers: { 'content-type': 'text/dns' },
    });
    expect(ok.status).toBe(200);
    const txt = await (await t.request('GET', '/api/v1/domains/signed.test/records?name=_acme-challenge')).json();
    expect(txt.map((r: { content: string }) => r.content)).toEqual(['token']);
  });
});

describe('a delegation or DNAME takes the subtree, so it needs the subtree in the scope', () => {
  it('a token limited to www cannot put NS or DNAME at www, on any path; with *.www it can', async () => {
    const www = await scoped({ names: ['www'] });
    const before = await snapshot('alice1.test');
    for (const [type, content] of [
      ['NS', 'ns.attacker.example.'],
      ['DNAME', 'attacker.example.'],
    ]) {
      const post = await t.request('POST', '/api/v1/domains/alice1.test/records', { token: www, body: { name: 'www', record_type: type, content, ttl: '300' } });
      expect(post.status).toBe(403);
      expect((await post.json()).error.message).toMatch(/takes over every name below it/);
      const patch = await t.request('PATCH', '/api/v1/domains/alice1.test/rrsets', { token: www, body: { rrsets: [{ name: 'www', record_type: type, changetype: 'REPLACE', records: [content] }] } });
      expect(patch.status).toBe(403);
      const p = await pdns(www, 'PATCH', '/alice1.test.', { rrsets: [{ name: 'www.alice1.test.', type, ttl: 300, changetype: 'REPLACE', records: [{ content, disabled: false }] }] });
      expect(p.status).toBe(403);
      const imp = await t.request('POST', '/api/v1/domains/alice1.test/zone?mode=merge', { token: www, raw: `www.alice1.test. 300 IN ${type} ${content}\n`, headers: { 'content-type': 'text/dns' } });
      expect(imp.status).toBe(403);
    }
    expect(await snapshot('alice1.test')).toEqual(before);
    // An A record at www is what the token is for.
    expect((await t.request('POST', '/api/v1/domains/alice1.test/records', { token: www, body: { name: 'www', record_type: 'A', content: '192.0.2.80', ttl: '300' } })).status).toBe(200);
    // With the subtree in its scope, the delegation is allowed.
    const tree = await scoped({ names: ['dev', '*.dev'] });
    expect((await t.request('POST', '/api/v1/domains/alice1.test/records', { token: tree, body: { name: 'dev', record_type: 'NS', content: 'ns.dev.example.', ttl: '300' } })).status).toBe(200);
  });
});

describe('the scope matrix: every scope part refuses the same out-of-scope write on every path', () => {
  type Write = { path: string; run: (token: string) => Promise<Response> };
  const zone = 'matrix.test';
  let recordId: number;
  let changeId: number;

  beforeAll(async () => {
    const recs = await (await t.request('GET', `/api/v1/domains/${zone}/records?name=www`, { token: alice })).json();
    recordId = recs[0].id;
    const changes = await (await t.request('GET', `/api/v1/domains/${zone}/changes`, { token: alice })).json();
    changeId = changes[0].id;
  });

  const writes: Write[] = [
    { path: 'record POST', run: (k) => t.request('POST', `/api/v1/domains/${zone}/records`, { token: k, body: { name: 'www', record_type: 'A', content: '192.0.2.9', ttl: '300' } }) },
    { path: 'record PUT', run: (k) => t.request('PUT', `/api/v1/domains/${zone}/records/${recordId}`, { token: k, body: { content: '192.0.2.10' } }) },
    { path: 'record DELETE', run: (k) => t.request('DELETE', `/api/v1/domains/${zone}/records/${recordId}`, { token: k }) },
    {
      path: 'PATCH rrsets',
      run: (k) => t.request('PATCH', `/api/v1/domains/${zone}/rrsets`, { token: k, body: { rrsets: [{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.11'] }] } }),
    },
    { path: 'revert', run: (k) => t.request('POST', `/api/v1/domains/${zone}/changes/${changeId}/revert`, { token: k }) },
    {
      path: 'import merge',
      run: (k) => t.request('POST', `/api/v1/domains/${zone}/zone?mode=merge`, { token: k, raw: 'www.matrix.test. 300 IN A 192.0.2.12\n', headers: { 'content-type': 'text/dns' } }),
    },
    { path: 'import replace', run: (k) => t.request('POST', `/api/v1/domains/${zone}/zone`, { token: k, raw: 'www.matrix.test. 300 IN A 192.0.2.13\n', headers: { 'content-type': 'text/dns' } }) },
    { path: 'PUT zone', run: (k) => t.request('PUT', `/api/v1/domains/${zone}`, { token: k, body: { refresh_interval: 7200 } }) },
    { path: 'DELETE zone', run: (k) => t.request('DELETE', `/api/v1/domains/${zone}`, { token: k }) },
    {
      path: 'PowerDNS PATCH',
      run: (k) => pdns(k, 'PATCH', `/${zone}.`, { rrsets: [{ name: `www.${zone}.`, type: 'A', ttl: 300, changetype: 'REPLACE', records: [{ content: '192.0.2.14', disabled: false }] }] }),
    },
    { path: 'PowerDNS PUT', run: (k) => pdns(k, 'PUT', `/${zone}.`, { dnssec: true }) },
    { path: 'PowerDNS DELETE', run: (k) => pdns(k, 'DELETE', `/${zone}.`) },
    { path: 'PowerDNS cryptokeys POST', run: (k) => pdns(k, 'POST', `/${zone}./cryptokeys`, { keytype: 'csk', active: true }) },
  ];

  const parts: Array<[string, ScopeInput, string?]> = [
    ['zones', { zones: ['alice1.test'] }],
    ['names', { names: ['_acme-challenge', 'mail'] }],
    ['types', { types: ['TXT', 'MX'] }],
    ['read_only', { read_only: true }],
    ['allowed_ips', { allowed_ips: ['198.51.100.0/24'] }],
  ];

  for (const [part, scope] of parts) {
    it(`${part}: 403 on every write path, nothing changed`, async () => {
      const token = await scoped(scope);
      const before = await snapshot(zone);
      const verdicts: Record<string, number> = {};
      for (const w of writes) verdicts[w.path] = (await w.run(token)).status;
      expect(verdicts).toEqual(Object.fromEntries(writes.map((w) => [w.path, 403])));
      expect(await snapshot(zone)).toEqual(before);
    });
  }

  it('the same record write inside a names+types scope passes on every record path', async () => {
    const token = await scoped({ names: ['_acme-challenge'], types: ['TXT'] });
    const ok = [
      await t.request('POST', `/api/v1/domains/${zone}/records`, { token, body: { name: '_acme-challenge', record_type: 'TXT', content: 'a', ttl: '60' } }),
      await t.request('PATCH', `/api/v1/domains/${zone}/rrsets`, { token, body: { rrsets: [{ name: '_acme-challenge', record_type: 'TXT', changetype: 'ADD', records: ['b'] }] } }),
      await t.request('POST', `/api/v1/domains/${zone}/zone?mode=merge`, { token, raw: '_acme-challenge.matrix.test. 60 IN TXT "c"\n', headers: { 'content-type': 'text/dns' } }),
      await pdns(token, 'PATCH', `/${zone}.`, { rrsets: [{ name: `_acme-challenge.${zone}.`, type: 'TXT', ttl: 60, changetype: 'REPLACE', records: [{ content: '"d"', disabled: false }] }] }),
    ];
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 204]);
    const txt = await (await t.request('GET', `/api/v1/domains/${zone}/records?name=_acme-challenge`, { token: alice })).json();
    expect(txt.map((r: { content: string }) => r.content)).toEqual(['d']);
  });
});
