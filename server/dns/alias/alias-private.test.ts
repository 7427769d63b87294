/**
 * Against the built server: an ALIAS target under a
 * special-use or ALIAS_DENY name is refused on every write path, and addresses only an internal
 * resolver knows (private, loopback, link-local, ULA, and their IPv6 spellings: NAT64, 6to4,
 * IPv4-mapped, Teredo) are dropped from ALIAS answers and transfers, unless ALIAS_ALLOW_PRIVATE=true.
 */
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

/** A split-horizon resolver: the CDN name has internal addresses beside its public one. */
const ANSWERS: Record<string, string[]> = {
  A: ['10.1.2.3', '192.168.1.1', '127.0.0.1', '100.64.0.9', '192.0.2.55'],
  // IPv6 spellings of internal IPv4 (NAT64, 6to4, IPv4-mapped, Teredo) are as internal as the IPv4;
  // NAT64 of a public IPv4 is public.
  AAAA: ['fe80::1', 'fd00::1', '::1', '64:ff9b::7f00:1', '2002:7f00:1::', '::ffff:10.0.0.1', '2001:0:c000:237:0:0:80ff:fffe', '64:ff9b:1::1', '2001:db8::55', '64:ff9b::c000:237'],
};
let resolver: dgram.Socket;
let port = 0;
const servers: RunningServer[] = [];

beforeAll(async () => {
  port = await freePort();
  resolver = dgram.createSocket('udp4');
  resolver.on('message', (msg, rinfo) => {
    const q = packet.decode(msg);
    const { name, type } = q.questions![0]!;
    const reply = packet.encode({
      id: q.id,
      type: 'response',
      flags: packet.RECURSION_AVAILABLE,
      questions: q.questions,
      answers: (ANSWERS[type] ?? []).map((data) => ({ name, type: type as 'A', ttl: 300, data })),
    });
    resolver.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => resolver.bind(port, '127.0.0.1', () => r()));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  resolver.close();
});

async function server(env: Record<string, string> = {}) {
  const s = await startServer({ RESOLVER: `127.0.0.1:${port}`, ...env });
  servers.push(s);
  expect((await s.api('POST', '/domains', { name: 'alias.test' })).status).toBe(201);
  return s;
}

const short = async (s: RunningServer, type: string) => (await s.dig('+short', 'alias.test', type)).trim().split('\n').filter(Boolean).sort();

describe('ALIAS and internal names', () => {
  it('a target under a special-use or ALIAS_DENY name is refused, naming content, on every write path', async () => {
    const s = await server({ ALIAS_DENY: 'corp.example.net' });
    const token = ((await (await s.api('POST', '/tokens', { label: 'pdns' })).json()) as { token: string }).token;
    for (const target of ['db.corp.internal', 'printer.local', 'router.home.arpa', 'localhost', 'intranet', 'db.corp.example.net']) {
      const post = await s.api('POST', '/domains/alias.test/records', { name: '@', record_type: 'ALIAS', content: `${target}.` });
      expect(post.status, target).toBe(400);
      const body = (await post.json()) as { error: { fields: Record<string, string> } };
      expect(Object.keys(body.error.fields)).toEqual(['content']);
      const patch = await s.api('PATCH', '/domains/alias.test/rrsets', { rrsets: [{ name: '@', record_type: 'ALIAS', changetype: 'REPLACE', records: [`${target}.`] }] });
      expect(patch.status, target).toBe(400);
      const pdns = await fetch(`${s.http}/api/v1/servers/localhost/zones/alias.test.`, {
        method: 'PATCH',
        headers: { 'X-API-Key': token, 'content-type': 'application/json' },
        body: JSON.stringify({ rrsets: [{ name: 'alias.test.', type: 'ALIAS', ttl: 300, changetype: 'REPLACE', records: [{ content: `${target}.`, disabled: false }] }] }),
      });
      expect(pdns.status, target).toBe(422);
    }
    const imp = await fetch(`${s.http}/api/v1/domains/alias.test/zone?mode=merge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/dns' },
      body: '@ 300 IN ALIAS db.corp.internal.\n',
    });
    expect(imp.status).toBe(400);
    expect(((await imp.json()) as { error: { fields: Record<string, string> } }).error.fields['line 1']).toMatch(/\.internal/);
  });

  it('internal addresses are dropped from the answers and the transfer; with ALIAS_ALLOW_PRIVATE=true they are served', async () => {
    const s = await server();
    expect((await s.api('POST', '/domains/alias.test/records', { name: '@', record_type: 'ALIAS', content: 'lb.cdn.example.' })).status).toBe(200);
    expect(await eventually(async () => (await short(s, 'A')).length > 0, 50, 100)).toBe(true);
    expect(await short(s, 'A')).toEqual(['192.0.2.55']);
    expect(await short(s, 'AAAA')).toEqual(['2001:db8::55', '64:ff9b::c000:237']);
    const axfr = (await s.dig('+tcp', 'alias.test', 'AXFR'))
      .split('\n')
      .filter((l) => !l.startsWith(';'))
      .join('\n');
    expect(axfr).toMatch(/alias\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.55/);
    expect(axfr).not.toMatch(/10\.1\.2\.3|192\.168\.1\.1|127\.0\.0\.1|fd00::1|fe80::1|64:ff9b::7f00:1|2002:7f00:1::|::ffff:|2001:0:|64:ff9b:1::/);

    const open = await server({ ALIAS_ALLOW_PRIVATE: 'true' });
    expect((await open.api('POST', '/domains/alias.test/records', { name: '@', record_type: 'ALIAS', content: 'lb.cdn.example.' })).status).toBe(200);
    expect(await eventually(async () => (await short(open, 'A')).length > 0, 50, 100)).toBe(true);
    expect(await short(open, 'A')).toEqual([...ANSWERS.A!].sort());
  });
});
