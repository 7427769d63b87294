/**
 * A primary zone's own transfers against real peers: kdig's AXFR from 127.0.0.1, which AXFR_ALLOW
 * leaves out, is refused until the zone's allow_transfer names it, and then wants the zone's key
 * once it has one; a real Knot secondary listed in also_notify hears of every API change by a
 * NOTIFY signed with that key, transfers with it, and serves the new serial.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';
import { startKnotSecondary, type KnotSecondary } from '../../testing/knot-secondary';
import { knotPreamble } from '../../testing/daemons';

const run = promisify(execFile);

let zd: RunningServer;

/** kdig's AXFR of `zone` from 127.0.0.1 (optionally signed: `-y alg:name:secret`): its whole output, errors included. */
async function axfr(zone: string, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await run('kdig', ['@127.0.0.1', '-p', String(zd.dns), '+time=2', '+retry=0', ...args, 'AXFR', zone]).catch((e: { stdout: string; stderr: string }) => e);
  return `${stdout}${stderr}`;
}

const refusedTcp = async () => Number(/zonedeck_dns_responses_total\{transport="tcp",rcode="REFUSED"\} (\d+)/.exec(await (await fetch(`${zd.http}/metrics`)).text())?.[1] ?? 0);

async function ok(res: Promise<Response>): Promise<Record<string, unknown>> {
  const r = await res;
  const body = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(body)).toBeLessThan(300);
  return body;
}

/** A TSIG key of the server's first user whose own scope admits none of 127.0.0.0/8: only a zone's allow_transfer lets it transfer from there. */
const elsewhereKey = async (name: string) => ok(zd.api('POST', '/tsig-keys', { name, scope: { allowed_ips: ['192.0.2.0/24'] } })) as Promise<{ name: string; secret: string; algorithm: string }>;

beforeAll(async () => {
  // AXFR_ALLOW names no address the tests use: every transfer below is the zone's own doing.
  zd = await startServer({ AXFR_ALLOW: '192.0.2.1/32' });
});
afterAll(async () => {
  await zd?.stop();
});

describe('allow_transfer and transfer_tsig_key, asked by kdig', () => {
  it('refuses an AXFR neither list allows (counted), serves it once allow_transfer names the client', async () => {
    await ok(zd.api('POST', '/domains', { name: 'open.example' }));
    await ok(zd.api('POST', '/domains/open.example/records', { name: 'www', record_type: 'A', content: '192.0.2.10' }));
    const before = await refusedTcp();
    expect(await axfr('open.example')).toMatch(/REFUSED/);
    expect(await eventually(async () => (await refusedTcp()) > before)).toBe(true);
    await ok(zd.api('PUT', '/domains/open.example', { allow_transfer: ['127.0.0.0/8'] }));
    const served = await axfr('open.example');
    expect(served).toMatch(/www\.open\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.10/);
    expect(served).not.toMatch(/REFUSED/);
  });

  it('with transfer_tsig_key, refuses the unsigned AXFR and serves the one signed with the key', async () => {
    await ok(zd.api('POST', '/domains', { name: 'keyed.example' }));
    await ok(zd.api('POST', '/domains/keyed.example/records', { name: 'www', record_type: 'A', content: '192.0.2.20' }));
    const key = await elsewhereKey('keyed-xfr');
    const other = await elsewhereKey('keyed-other');
    const y = `${key.algorithm}:${key.name}:${key.secret}`;
    // The key alone (its scope leaves out 127.0.0.1) does not open the zone (once the DNS thread knows both keys).
    expect(await eventually(async () => !/BADKEY/.test(await axfr('keyed.example', '-y', `${other.algorithm}:${other.name}:${other.secret}`)))).toBe(true);
    expect(await axfr('keyed.example', '-y', y)).toMatch(/REFUSED/);
    await ok(zd.api('PUT', '/domains/keyed.example', { allow_transfer: ['127.0.0.1'], transfer_tsig_key: key.name }));
    expect(await axfr('keyed.example')).toMatch(/REFUSED/);
    const signed = await axfr('keyed.example', '-y', y);
    expect(signed).toMatch(/www\.keyed\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.20/);
    expect(signed).toMatch(/TSIG.*NOERROR/);
    // Another key of the same owner is not the zone's.
    const wrong = await axfr('keyed.example', '-y', `${other.algorithm}:${other.name}:${other.secret}`);
    expect(wrong, wrong).toMatch(/REFUSED/);
  });
});

describe('also_notify, heard by a real Knot secondary', () => {
  let knot: KnotSecondary;
  let key: { name: string; secret: string; algorithm: string };

  beforeAll(async () => {
    await ok(zd.api('POST', '/domains', { name: 'knot.example' }));
    key = await elsewhereKey('knot-zone-xfr');
    await ok(zd.api('PUT', '/domains/knot.example', { allow_transfer: ['127.0.0.1'], transfer_tsig_key: key.name }));
    // Once the DNS thread has the new key and the zone's new settings, a signed AXFR from here is served.
    expect(await eventually(async () => /IN\s+SOA\s/.test(await axfr('knot.example', '-y', `${key.algorithm}:${key.name}:${key.secret}`)), 100, 100)).toBe(true);
    // Knot transfers only with the key, and takes NOTIFY only signed with it; its refresh timer is hours.
    knot = await startKnotSecondary(
      (dir, port) => `${knotPreamble(dir, port, zd.dns, key)}template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: none
zone:
  - domain: knot.example
    master: zonedeck
    acl: notify-from-zonedeck
`,
    );
  });
  afterAll(async () => {
    await knot?.stop();
  });

  const serialAt = async (ask: () => Promise<string[]>) => (await ask())[0]?.split(' ')[2];

  it('receives NOTIFY after a record change through the API and serves the new serial', async () => {
    // Knot's first refresh comes at its start; should it miss, its retry comes about 20 s later.
    expect(await eventually(async () => (await knot.ask('knot.example', 'SOA')).length === 1, 75, 400), knot.output()).toBe(true);
    await ok(zd.api('PUT', '/domains/knot.example', { also_notify: [`127.0.0.1:${knot.port}`] }));
    const content = 'pushed by the zone own notify';
    await ok(zd.api('POST', '/domains/knot.example/records', { name: 'news', record_type: 'TXT', content }));
    const served = await eventually(async () => (await knot.ask('news.knot.example', 'TXT')).join() === `"${content}"`, 100, 100);
    expect(served, knot.output()).toBe(true);
    const ours = await serialAt(async () => (await zd.dig('+short', 'knot.example', 'SOA')).trim().split('\n'));
    expect(await serialAt(() => knot.ask('knot.example', 'SOA'))).toBe(ours);
    // Knot's ACL takes NOTIFY only with the key: it came signed.
    expect(knot.output()).toMatch(/notify, incoming, remote 127\.0\.0\.1@\d+, serial \d+/i);
    expect(knot.output()).not.toMatch(/denied|failed to verify|BADSIG|BADKEY/i);
  }, 90_000);
});
