/**
 * The scope matrix, checked through DNS: the same scope given to an API token
 * and to a TSIG key allows and denies the same writes, through the API (403) and through
 * RFC 2136 UPDATE with nsupdate (REFUSED); what a real `dig` answers afterwards is the proof.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;

/** The same scope for a token and a key. */
const SCOPES: Record<string, object> = {
  acme: { zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] },
  'other zone': { zones: ['example.org'] },
  'read-only': { read_only: true },
  'other network': { allowed_ips: ['192.0.2.0/24'] },
  unrestricted: {},
};

/** [record name ("{}" becomes a label of its own per scope and path), type, content, the scopes that allow it]. */
const WRITES: Array<[string, string, string, string[]]> = [
  ['_acme-challenge.{}', 'TXT', 'proof', ['acme', 'unrestricted']],
  ['{}', 'TXT', 'not a challenge', ['unrestricted']],
  ['_acme-challenge.{}-alias', 'CNAME', 'elsewhere.example.net', ['unrestricted']],
];

const tokens = new Map<string, string>();
const keys = new Map<string, string>();

function nsupdate(key: string, line: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('nsupdate', ['-y', key], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve(`${code} ${out}`));
    child.stdin.end(`server 127.0.0.1 ${s.dns}\nzone example.com.\n${line}\nsend\n`);
  });
}

const api = (token: string, body: object) =>
  fetch(`${s.http}/api/v1/domains/example.com/records`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const served = async (name: string, type: string) => (await s.dig('+short', `${name}.example.com`, type)).trim();

beforeAll(async () => {
  s = await startServer();
  for (const zone of ['example.com', 'example.org']) expect((await s.api('POST', '/domains', { name: zone })).status).toBe(201);
  for (const [i, [label, scope]] of Object.entries(SCOPES).entries()) {
    tokens.set(label, ((await (await s.api('POST', '/tokens', { label, scope })).json()) as { token: string }).token);
    keys.set(label, ((await (await s.api('POST', '/tsig-keys', { name: `matrix-${i}`, scope })).json()) as { nsupdate: string }).nsupdate);
  }
  expect(await eventually(async () => /NOERROR/.test(await s.dig('-y', keys.get('unrestricted')!, 'example.com', 'SOA')), 50, 100)).toBe(true);
});
afterAll(() => s?.stop());

describe.each(Object.keys(SCOPES))('scope "%s"', (scope) => {
  it.each(WRITES)('%s %s: the API and UPDATE agree, and DNS shows exactly what was allowed', async (name, type, content, allowedFor) => {
    const allowed = allowedFor.includes(scope);
    const tag = scope.replace(/\W/g, '-');
    const apiName = name.replace('{}', `${tag}-api`);
    const viaApi = await api(tokens.get(scope)!, { name: apiName, record_type: type, content, ttl: '60' });
    expect(viaApi.status, `API ${scope} ${name} ${type}`).toBe(allowed ? 200 : 403);
    expect(await served(apiName, type)).toBe(allowed ? (type === 'TXT' ? `"${content}"` : `${content}.`) : '');

    const dnsName = name.replace('{}', `${tag}-dns`);
    const out = await nsupdate(keys.get(scope)!, `update add ${dnsName}.example.com. 60 ${type} ${type === 'TXT' ? `"${content}"` : `${content}.`}`);
    expect(out, `UPDATE ${scope} ${name} ${type}`).toMatch(allowed ? /^0 / : /REFUSED/);
    expect(await served(dnsName, type)).toBe(allowed ? (type === 'TXT' ? `"${content}"` : `${content}.`) : '');
  });
});

describe('a delegation or DNAME takes the subtree', () => {
  it('a token and a key limited to "www" cannot put NS or DNAME at www; an A record they can', async () => {
    const scope = { zones: ['example.com'], names: ['www'] };
    const token = ((await (await s.api('POST', '/tokens', { label: 'www', scope })).json()) as { token: string }).token;
    const key = ((await (await s.api('POST', '/tsig-keys', { name: 'www-only', scope })).json()) as { nsupdate: string }).nsupdate;
    expect(await eventually(async () => /NOERROR/.test(await s.dig('-y', key, 'example.com', 'SOA')), 50, 100)).toBe(true);
    for (const [type, content] of [
      ['NS', 'ns.attacker.example.'],
      ['DNAME', 'attacker.example.'],
    ] as const) {
      const viaApi = await api(token, { name: 'www', record_type: type, content, ttl: '60' });
      expect(viaApi.status, `API www ${type}`).toBe(403);
      const out = await nsupdate(key, `update add www.example.com. 60 ${type} ${content}`);
      expect(out, `UPDATE www ${type}`).toMatch(/REFUSED/);
      expect(await served('www', type)).toBe('');
    }
    // api.www stays answered by zonedeck, not referred to the attacker's server.
    expect(await s.dig('api.www.example.com', 'A')).toMatch(/status: NXDOMAIN/);
    expect((await api(token, { name: 'www', record_type: 'A', content: '192.0.2.80', ttl: '60' })).status).toBe(200);
    expect(await nsupdate(key, 'update add www.example.com. 60 A 192.0.2.81')).toMatch(/^0 /);
    expect((await served('www', 'A')).split('\n').sort()).toEqual(['192.0.2.80', '192.0.2.81']);
  });
});
