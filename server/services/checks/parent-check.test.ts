/**
 * The check from outside against real BIND servers on 127.0.0.1: one `named` serves the parent
 * zone `test.` (authoritative only, no recursion) with delegations to child zones, another is a
 * recursive resolver forwarding to it. The check finds the parent through the resolver and asks
 * the parent's server itself: delegated to NAMESERVERS → a match; delegated elsewhere → pending,
 * naming the parent's NS; the parent's DS compared with the zone's keys; a RESOLVER that does not
 * recurse (the parent's own server, or one that refuses) → said so, never a match.
 */
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedOptions, startNamed, type NamedProcess } from '../../testing/named-process';
import { freePort } from '../../testing/test-server';
import type { DnssecPublicKey, DomainRow } from '../../store/types';
import { createDelegationChecks } from './delegation-check';

const NAMESERVERS = ['ns1.zonedeck.test', 'ns2.zonedeck.test'];
const DIGEST = 'E2D3C916F6DEEAC73294E8268FB5885044A833FC5459588F4A9184CFC41A5766';
const KEY = { key_tag: 12345, algorithm: 13, ds_digest: DIGEST } as DnssecPublicKey;

const PARENT_ZONE = `$TTL 300
@ SOA ns.test. hostmaster.test. 1 3600 600 86400 300
@ NS ns.test.
ns A 127.0.0.1
ns1.zonedeck A 127.0.0.1
ns2.zonedeck A 127.0.0.1
good NS ns1.zonedeck.test.
good NS ns2.zonedeck.test.
elsewhere NS ns1.parking.example.
elsewhere NS ns2.parking.example.
signed NS ns1.zonedeck.test.
signed NS ns2.zonedeck.test.
signed DS 12345 13 2 ${DIGEST}
`;

let parent: NamedProcess;
let resolver: NamedProcess;
let refuser: dgram.Socket;
let refuserPort: number;
let silentPort: number;

beforeAll(async () => {
  parent = await startNamed({
    label: 'parent',
    config: (dir, port) => `${namedOptions(dir, port, ['recursion no;', 'dnssec-validation no;'])}zone "test" { type primary; file "test.db"; };\n`,
    files: { 'test.db': PARENT_ZONE },
    ready: { name: 'test', type: 'SOA' },
  });
  resolver = await startNamed({
    label: 'resolver',
    config: (dir, port) =>
      namedOptions(dir, port, [
        'recursion yes;',
        'allow-recursion { 127.0.0.1; };',
        'dnssec-validation no;',
        'qname-minimization disabled;',
        `forwarders { 127.0.0.1 port ${parent.port}; };`,
        'forward only;',
      ]),
    ready: { name: 'test', type: 'SOA' },
  });
  // A resolver that refuses every question with RA set: no recursion for us either.
  refuserPort = await freePort();
  refuser = dgram.createSocket('udp4');
  refuser.on('message', (msg, rinfo) => {
    const q = packet.decode(msg);
    const reply = packet.encode({ id: q.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | 5, questions: q.questions });
    refuser.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => refuser.bind(refuserPort, '127.0.0.1', () => r()));
  silentPort = await freePort();
}, 60_000);

afterAll(async () => {
  refuser?.close();
  await resolver?.stop();
  await parent?.stop();
});

const zone = (name: string, signed = false) => ({ id: name.length, name, serial_number: 1, dnssec_enabled: signed }) as DomainRow;

/** A check through `resolverPort`; the parent's servers answer at the parent named's port, ours (nothing listens) at another. */
const checks = (resolverPort: number, insideNetworks = ['127.0.0.0/8']) =>
  createDelegationChecks({ resolver: `127.0.0.1:${resolverPort}`, nameservers: NAMESERVERS, insideNetworks, parentPort: parent.port, nameserverPort: silentPort, keepMs: 0 });

describe('check from outside, asking the parent', () => {
  it("matches when the parent's own server delegates the zone to NAMESERVERS", async () => {
    const report = await checks(resolver.port).check(zone('good.test'), []);
    expect(report).toMatchObject({
      resolver_status: 'recursive',
      parent_zone: 'test',
      parent_servers: ['ns.test'],
      asked: 'ns.test (127.0.0.1)',
      parent: { ns: NAMESERVERS, ds: [] },
      ns_match: true,
      ds_status: 'unsigned',
    });
  });

  it('is pending while the parent delegates the zone elsewhere, naming where', async () => {
    const report = await checks(resolver.port).check(zone('elsewhere.test'), []);
    expect(report.resolver_status).toBe('recursive');
    expect(report.parent).toEqual({ ns: ['ns1.parking.example', 'ns2.parking.example'], ds: [] });
    expect(report.ns_match).toBe(false);
    expect(report.nameservers.map((n) => n.name)).toEqual(['ns1.parking.example', 'ns2.parking.example']);
  });

  it('is pending with no NS at all when the parent does not delegate the zone', async () => {
    const report = await checks(resolver.port).check(zone('nowhere.test'), []);
    expect(report.parent).toEqual({ ns: [], ds: [] });
    expect(report.ns_match).toBe(false);
  });

  it("compares the DS the parent serves with the zone's keys", async () => {
    expect((await checks(resolver.port).check(zone('signed.test', true), [KEY])).ds_status).toBe('match');
    const other = { ...KEY, ds_digest: DIGEST.replace(/^E2/, 'E3') };
    expect((await checks(resolver.port).check(zone('signed.test', true), [other])).ds_status).toBe('mismatch');
    expect((await checks(resolver.port).check(zone('good.test', true), [KEY])).ds_status).toBe('missing');
  });

  it('never matches through a RESOLVER that does not recurse: the parent itself (RA clear), or one that refuses', async () => {
    for (const port of [parent.port, refuserPort]) {
      const report = await checks(port).check(zone('good.test'), []);
      expect(report).toMatchObject({ resolver_status: 'not_recursive', parent_zone: null, parent: null, ns_match: false, ds_status: 'unknown' });
    }
  });

  it("asks the parent's servers only at public addresses unless their network is listed", async () => {
    const report = await checks(resolver.port, []).check(zone('good.test'), []);
    expect(report).toMatchObject({ resolver_status: 'recursive', parent_zone: 'test', parent_servers: ['ns.test'], asked: null, parent: null, ns_match: false });
  });
});
