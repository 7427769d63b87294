/**
 * Secondary zones against a real hidden primary: Knot serves two zones (one with a journal, so it
 * answers IXFR; transfers signed with a TSIG key), and zonedeck follows them: the first transfer
 * on creation, a change on Knot's NOTIFY by IXFR, one change set per transfer in History, every
 * write refused, SERVFAIL once the primary has been gone past SOA expire.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnotPrimary, primaryZoneFile } from '../../testing/knot-primary';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

const SECRET = Buffer.alloc(32, 7).toString('base64');

let zd: RunningServer;
let knot: KnotPrimary;

const short = async (name: string, type: string) => (await zd.dig('+short', '+time=1', '+tries=1', name, type)).trim();
const status = async (name: string, type: string) => /status: (\w+)/.exec(await zd.dig('+time=1', '+tries=1', name, type))?.[1];

beforeAll(async () => {
  zd = await startServer();
  const key = await zd.api('POST', '/tsig-keys', { name: 'xfr-key', algorithm: 'hmac-sha256', secret: SECRET });
  expect(key.status, await key.clone().text()).toBe(201);
  knot = await KnotPrimary.start(
    [
      { name: 'hidden.test', file: primaryZoneFile('hidden.test', 1), key: { name: 'xfr-key', secret: SECRET } },
      // Refresh 1 s, retry 1 s, expire 3 s: zonedeck gives the zone up 3 s after Knot goes away.
      { name: 'fleeting.test', file: primaryZoneFile('fleeting.test', 7, '1 1 3 300') },
      { name: 'signed.test', file: primaryZoneFile('signed.test', 1), signed: true },
    ],
    zd.dns,
  );
});

afterAll(async () => {
  await knot?.stop(true);
  await zd?.stop();
});

describe('a secondary zone of a hidden Knot primary', () => {
  it('is transferred on creation (TSIG-signed) and answers as the primary does, its SOA included', async () => {
    const res = await zd.api('POST', '/domains', { name: 'hidden.test', kind: 'secondary', primaries: [knot.address], tsig_key: 'xfr-key' });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { kind: string; primaries: string[]; tsig_key: string };
    expect(created).toMatchObject({ kind: 'secondary', primaries: [knot.address], tsig_key: 'xfr-key' });
    expect(await eventually(async () => (await short('www.hidden.test', 'A')) === '192.0.2.10', 100, 100), knot.output).toBe(true);
    expect(await short('hidden.test', 'SOA')).toBe('ns.hidden-primary.example. hostmaster.hidden-primary.example. 1 3600 600 86400 300');
    expect((await short('hidden.test', 'NS')).split('\n').sort()).toEqual(['ns1.public.example.', 'ns2.public.example.']);
    expect(await short('x.apps.hidden.test', 'A')).toBe('192.0.2.30');
    expect(await zd.dig('+norec', 'www.sub.hidden.test', 'A')).toMatch(/AUTHORITY SECTION:\s*\nsub\.hidden\.test\.\s+300\s+IN\s+NS\s+ns\.sub\.hidden\.test\./);
    const got = (await (await zd.api('GET', '/domains/hidden.test')).json()) as { serial_number: number; transfer: { state: string; serial: number; error: string | null; last_success: string } };
    expect(got.serial_number).toBe(1);
    expect(got.transfer).toMatchObject({ state: 'ok', serial: 1, error: null });
    // Knot's acl takes only transfers signed with the key: an unsigned one would have been refused.
    expect(knot.output).toMatch(/AXFR, outgoing, remote 127\.0\.0\.1@\d+, finished/);
    expect(knot.output).not.toMatch(/denied|refused/i);
  });

  it('follows a change on the primary at its NOTIFY, by IXFR, as one change set in History', async () => {
    await knot.set('hidden.test', 'new', '300', 'A', '192.0.2.77');
    // The refresh timer is an hour: only the NOTIFY can bring the change this soon.
    expect(await eventually(async () => (await short('new.hidden.test', 'A')) === '192.0.2.77', 100, 100), knot.output).toBe(true);
    expect(await short('hidden.test', 'SOA')).toMatch(/ 2 3600 600 86400 300$/);
    expect(knot.output).toMatch(/IXFR, outgoing, remote 127\.0\.0\.1@\d+, finished/);
    const metrics = await eventually(async () => /zonedeck_dns_notify_total\{result="taken"\} [1-9]/.test(await (await fetch(`${zd.http}/metrics`)).text()), 100, 50);
    expect(metrics).toBe(true);
    const history = (await (await zd.api('GET', '/domains/hidden.test/changes')).json()) as {
      source: string;
      comment: string;
      serial_after: number;
      actor: { username: string };
      added: { name: string; content: string }[];
    }[];
    expect(history[0]).toMatchObject({ source: 'transfer', serial_after: 2, actor: { username: knot.address } });
    expect(history[0]!.comment).toMatch(/IXFR/);
    expect(history[0]!.added).toEqual([expect.objectContaining({ name: 'new', content: '192.0.2.77' })]);
    expect(history.at(-1)!.comment).toMatch(/secondary zone created/);
  });

  it('refuses every write: API, settings, DNSSEC, revert, RFC 2136', async () => {
    const refused = async (res: Response) => {
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('secondary_zone');
    };
    await refused(await zd.api('POST', '/domains/hidden.test/records', { name: 'x', record_type: 'A', content: '192.0.2.1' }));
    await refused(await zd.api('PUT', '/domains/hidden.test', { refresh_interval: 7200 }));
    await refused(await zd.api('PUT', '/domains/hidden.test', { dnssec_enabled: true }));
    const history = (await (await zd.api('GET', '/domains/hidden.test/changes')).json()) as { id: number }[];
    await refused(await zd.api('POST', `/domains/hidden.test/changes/${history[0]!.id}/revert`));
    const update = `server 127.0.0.1 ${zd.dns}\nzone hidden.test\nupdate add evil.hidden.test 60 A 192.0.2.66\nsend\n`;
    const out = await new Promise<string>((resolve) => {
      const child = execFile('nsupdate', ['-y', `hmac-sha256:xfr-key:${SECRET}`], (_err, stdout, stderr) => resolve(stdout + stderr));
      child.stdin!.end(update);
    });
    expect(out).toMatch(/REFUSED/);
    expect(await short('evil.hidden.test', 'A')).toBe('');
  });

  it('ignores a NOTIFY from an address that is not a primary, and counts it', async () => {
    const res = await zd.api('POST', '/domains', { name: 'other.test', kind: 'secondary', primaries: ['192.0.2.200:53'] });
    expect(res.status).toBe(201);
    // From 127.0.0.1, which is not 192.0.2.200.
    expect(await zd.dig('+opcode=notify', '+norec', 'other.test', 'SOA')).toMatch(/status: REFUSED/);
    const metrics = await (await fetch(`${zd.http}/metrics`)).text();
    expect(metrics).toMatch(/zonedeck_dns_notify_total\{result="ignored"\} [1-9]/);
    // Never transferred: the zone is not answered from nothing.
    expect(await status('other.test', 'SOA')).toBe('SERVFAIL');
  });

  it('refuses bad input naming the field, and another user’s key', async () => {
    const bad = async (body: object, field: string) => {
      const res = await zd.api('POST', '/domains', { name: 'bad.test', ...body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields[field]).toBeTruthy();
    };
    await bad({ kind: 'secondary', primaries: [] }, 'primaries');
    await bad({ kind: 'secondary', primaries: ['ns1.example.com:53'] }, 'primaries');
    await bad({ kind: 'secondary', primaries: ['192.0.2.1:70000'] }, 'primaries');
    await bad({ kind: 'secondary', primaries: ['192.0.2.1', '192.0.2.1:53'] }, 'primaries');
    await bad({ kind: 'secondary', primaries: ['192.0.2.1'], tsig_key: 'nobody-has-this' }, 'tsig_key');
    await bad({ kind: 'secondary', primaries: ['192.0.2.1'], dnssec_enabled: true }, 'dnssec_enabled');
    await bad({ primaries: ['192.0.2.1'] }, 'primaries');
    expect((await zd.api('GET', '/domains/bad.test')).status).toBe(404);
  });
});

describe('a secondary of a signed primary', () => {
  it("serves the zone as Knot signed it: delv with Knot's key validates answers and denials, before and after an IXFR", async () => {
    expect((await zd.api('POST', '/domains', { name: 'signed.test', kind: 'secondary', primaries: [knot.address] })).status).toBe(201);
    expect(await eventually(async () => (await short('www.signed.test', 'A')) === '192.0.2.10', 100, 100), knot.output).toBe(true);
    const { stdout } = await promisify(execFile)('dig', ['@127.0.0.1', '-p', String(knot.port), '+short', 'signed.test', 'DNSKEY']);
    const ksk = stdout.split('\n').find((l) => l.startsWith('257 '))!;
    expect(ksk).toBeTruthy();
    const anchor = path.join(knot.dir, 'anchor.conf');
    fs.writeFileSync(anchor, `trust-anchors { "signed.test." static-key ${ksk.split(' ').slice(0, 3).join(' ')} "${ksk.split(' ').slice(3).join('')}"; };\n`);
    const delv = async (qname: string, type: string) => {
      const out = await promisify(execFile)('delv', ['@127.0.0.1', '-p', String(zd.dns), '-a', anchor, '+root=signed.test', qname, type]).catch((e: { stdout?: string; stderr?: string }) => e);
      return `${out.stdout ?? ''}${out.stderr ?? ''}`;
    };
    expect(await delv('www.signed.test', 'A')).toMatch(/; fully validated[\s\S]*192\.0\.2\.10/);
    expect(await delv('nope.signed.test', 'A')).toMatch(/; negative response, fully validated/);
    expect(await delv('x.apps.signed.test', 'A')).toMatch(/; fully validated[\s\S]*192\.0\.2\.30/);
    await knot.set('signed.test', 'late', '300', 'A', '192.0.2.88');
    expect(await eventually(async () => (await short('late.signed.test', 'A')) === '192.0.2.88', 100, 100), knot.output).toBe(true);
    expect(await delv('late.signed.test', 'A')).toMatch(/; fully validated[\s\S]*192\.0\.2\.88/);
    expect(await delv('www.signed.test', 'A')).toMatch(/; fully validated/);
    // Without DO, no DNSSEC record in the answer.
    expect(await zd.dig('www.signed.test', 'A')).not.toMatch(/RRSIG/);
    expect(await zd.dig('+dnssec', 'www.signed.test', 'A')).toMatch(/RRSIG/);
  });
});

describe('a secondary whose primary goes away', () => {
  it('answers until SOA expire, then SERVFAIL, and says why', async () => {
    const res = await zd.api('POST', '/domains', { name: 'fleeting.test', kind: 'secondary', primaries: [knot.address] });
    expect(res.status).toBe(201);
    expect(await eventually(async () => (await short('www.fleeting.test', 'A')) === '192.0.2.10', 100, 100)).toBe(true);
    await knot.stop();
    expect(await eventually(async () => (await status('www.fleeting.test', 'A')) === 'SERVFAIL', 100, 100)).toBe(true);
    const transfer = async () => ((await (await zd.api('GET', '/domains/fleeting.test')).json()) as { transfer: { state: string; error: string | null } }).transfer;
    // The check that failed says why (a SOA query gives up after a few seconds).
    expect(await eventually(async () => (await transfer()).error !== null, 100, 100), JSON.stringify([await transfer(), zd.logs.filter((l) => String(l.msg).includes('secondary'))])).toBe(true);
    const got = await transfer();
    expect(got.state).toBe('expired');
    expect(got.error).toMatch(new RegExp(`127\\.0\\.0\\.1:${knot.port}.*did not answer`));
    // Nor is it handed on to a secondary of zonedeck's.
    expect(await zd.dig('fleeting.test', 'AXFR')).toMatch(/SERVFAIL|Transfer failed/);
    // The other zone is still within its expire (a day): still answered.
    expect(await short('www.hidden.test', 'A')).toBe('192.0.2.10');
  });
});
