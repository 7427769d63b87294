/**
 * RFC 2136 UPDATE on the running server with the real `nsupdate` (BIND) and `knsupdate` (Knot):
 * every algorithm, UDP and TCP, prerequisites, the change in DNS at once, in the API and in the
 * zone's history as source rfc2136 with the key's name; unsigned, wrongly signed, foreign and
 * out-of-scope updates refused with nothing applied.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TSIG_ALGORITHM_NAMES } from '../../core/tsig-rules';
import { cli } from '../../testing/server-process';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
const keys = new Map<string, string>();

/** Runs nsupdate or knsupdate with a script on stdin; its exit code and everything it printed. */
function run(tool: 'nsupdate' | 'knsupdate', args: string[], lines: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(tool, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
    child.stdin.end(`server 127.0.0.1 ${s.dns}\nzone example.com.\n${lines.join('\n')}\nsend\n`);
  });
}

const nsupdate = (key: string | null, lines: string[], tcp = false) => run('nsupdate', [...(tcp ? ['-v'] : []), ...(key ? ['-y', key] : [])], lines);
const knsupdate = (key: string, lines: string[]) => run('knsupdate', ['-y', key], lines);
const short = async (name: string, type: string) => (await s.dig('+short', name, type)).trim().split('\n').filter(Boolean);
const records = async () =>
  ((await (await s.api('GET', '/domains/example.com/records?per_page=500')).json()) as Array<{ name: string; record_type: string; content: string }>).map(
    (r) => `${r.name} ${r.record_type} ${r.content}`,
  );
const serial = async () => ((await (await s.api('GET', '/domains/example.com')).json()) as { serial_number: number }).serial_number;

beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  expect((await s.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.80' })).status).toBe(200);
  for (const algorithm of TSIG_ALGORITHM_NAMES) keys.set(algorithm, cli(s.dir, 'tsig', 'create', 'admin', `up-${algorithm}`, '--algorithm', algorithm).at(-1)!);
  keys.set('acme', cli(s.dir, 'tsig', 'create', 'admin', 'acme', '--zones', 'example.com', '--names', '_acme-challenge,_acme-challenge.*', '--types', 'TXT').at(-1)!);
  keys.set('ro', cli(s.dir, 'tsig', 'create', 'admin', 'ro', '--read-only').at(-1)!);
  cli(s.dir, 'users', 'add', 'mallory');
  keys.set('mallory', cli(s.dir, 'tsig', 'create', 'mallory', 'mallory').at(-1)!);
  // The DNS thread picks keys up within a second.
  expect(await eventually(async () => /status: NOERROR/.test(await s.dig('-y', keys.get('mallory')!, 'example.com', 'SOA')), 50, 100)).toBe(true);
});
afterAll(() => s?.stop());

describe.each(['nsupdate', 'knsupdate'] as const)('%s -y', (tool) => {
  it.each([...TSIG_ALGORITHM_NAMES])('%s: adds and deletes records; DNS, the API and the history show it at once', async (algorithm) => {
    const name = `${tool}-${algorithm}`;
    const send = (lines: string[]) => (tool === 'nsupdate' ? nsupdate(keys.get(algorithm)!, lines) : knsupdate(keys.get(algorithm)!, lines));
    const added = await send([`update add ${name}.example.com. 300 TXT "made by ${tool}"`, `update add ${name}.example.com. 300 A 192.0.2.10`]);
    expect(added, added.out).toMatchObject({ code: 0 });
    expect(await short(`${name}.example.com`, 'TXT')).toEqual([`"made by ${tool}"`]);
    expect(await records()).toEqual(expect.arrayContaining([`${name} TXT made by ${tool}`, `${name} A 192.0.2.10`]));
    const [change] = (await (await s.api('GET', '/domains/example.com/changes?per_page=1')).json()) as Array<{ source: string; actor: object; added: object[] }>;
    expect(change).toMatchObject({ source: 'rfc2136', actor: { username: 'admin', credential: `tsig:up-${algorithm}` } });
    expect(change!.added).toHaveLength(2);

    const deleted = await send([`update delete ${name}.example.com. TXT`, `update delete ${name}.example.com. A 192.0.2.10`]);
    expect(deleted, deleted.out).toMatchObject({ code: 0 });
    expect(await short(`${name}.example.com`, 'TXT')).toEqual([]);
    expect((await records()).filter((r) => r.startsWith(`${name} `))).toEqual([]);
  });
});

describe('prerequisites', () => {
  it('applies the update only when they hold, and answers the failing one with its RCODE', async () => {
    const key = keys.get('hmac-sha256')!;
    const before = await serial();
    const blocked = await nsupdate(key, ['prereq yxdomain nothing-here.example.com.', 'update add pre.example.com. 60 TXT "no"']);
    expect(blocked.code).not.toBe(0);
    expect(blocked.out).toMatch(/NXDOMAIN/);
    const rrset = await nsupdate(key, ['prereq yxrrset www.example.com. A 192.0.2.99', 'update add pre.example.com. 60 TXT "no"']);
    expect(rrset.out).toMatch(/NXRRSET/);
    const taken = await knsupdate(key, ['prereq nxdomain www.example.com.', 'update add pre.example.com. 60 TXT "no"']);
    expect(taken.out).toMatch(/YXDOMAIN/);
    expect(await serial()).toBe(before);
    expect(await short('pre.example.com', 'TXT')).toEqual([]);

    // Over TCP: replace www's address only if it still is what we think (compare-and-swap).
    const swap = await nsupdate(key, ['prereq yxrrset www.example.com. A 192.0.2.80', 'update delete www.example.com. A', 'update add www.example.com. 60 A 192.0.2.81'], true);
    expect(swap, swap.out).toMatchObject({ code: 0 });
    expect(await short('www.example.com', 'A')).toEqual(['192.0.2.81']);
    const stale = await nsupdate(key, ['prereq yxrrset www.example.com. A 192.0.2.80', 'update delete www.example.com. A', 'update add www.example.com. 60 A 192.0.2.82'], true);
    expect(stale.out).toMatch(/NXRRSET/);
    expect(await short('www.example.com', 'A')).toEqual(['192.0.2.81']);
  });
});

describe('refusals', () => {
  const add = (name: string) => [`update add ${name}.example.com. 60 TXT "should not be there"`];

  it('refuses an unsigned update, and answers a wrong secret with NOTAUTH', async () => {
    expect((await nsupdate(null, add('unsigned'))).out).toMatch(/REFUSED/);
    const [alg, name] = keys.get('hmac-sha256')!.split(':');
    const wrong = await nsupdate(`${alg}:${name}:${Buffer.alloc(32, 1).toString('base64')}`, add('wrong'));
    expect(wrong.code).not.toBe(0);
    expect(wrong.out).toMatch(/NOTAUTH|BADSIG|tsig verify failure/i);
    expect(await records()).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(unsigned|wrong) /)]));
  });

  it("refuses another user's key, a read-only key, and an ACME key outside _acme-challenge TXT", async () => {
    expect((await nsupdate(keys.get('mallory')!, add('foreign'))).out).toMatch(/REFUSED/);
    expect((await nsupdate(keys.get('ro')!, add('readonly'))).out).toMatch(/REFUSED/);
    const acme = keys.get('acme')!;
    expect((await nsupdate(acme, add('www-txt'))).out).toMatch(/REFUSED/);
    expect((await nsupdate(acme, ['update add _acme-challenge.example.com. 60 CNAME example.net.'])).out).toMatch(/REFUSED/);
    // One record outside the scope refuses the whole update.
    expect((await nsupdate(acme, ['update add _acme-challenge.www.example.com. 60 TXT "ok"', 'update add www.example.com. 60 TXT "no"'])).out).toMatch(/REFUSED/);
    expect(await short('_acme-challenge.www.example.com', 'TXT')).toEqual([]);
    const ok = await nsupdate(acme, ['update add _acme-challenge.www.example.com. 60 TXT "challenge-token"']);
    expect(ok, ok.out).toMatchObject({ code: 0 });
    expect(await short('_acme-challenge.www.example.com', 'TXT')).toEqual(['"challenge-token"']);
    expect(await records()).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(foreign|readonly|www-txt) /)]));
  });

  it('refuses an update that breaks a zone rule (CNAME beside data), whole', async () => {
    const key = keys.get('hmac-sha256')!;
    const out = await nsupdate(key, ['update add fine.example.com. 60 TXT "x"', 'update add www.example.com. 60 CNAME example.net.']);
    expect(out.out).toMatch(/REFUSED/);
    expect(await short('fine.example.com', 'TXT')).toEqual([]);
  });
});
