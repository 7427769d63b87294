/**
 * Through DNS: a team member's TSIG key reaches the team's zones within the member's
 * role. An editor's key UPDATEs, a viewer's key transfers but cannot UPDATE, a
 * stranger's key does neither; a member removed from the team loses the zone at once. `nsupdate`
 * and `dig` are the real clients; what dig answers afterwards is the proof.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli } from '../../testing/server-process';
import { join, overHttp } from '../../testing/team-members';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
const keys: Record<string, string> = {};
const ZONE = 'team.test';

const as = (token: string, method: string, url: string, body?: unknown) =>
  fetch(`${s.http}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

function nsupdate(key: string, line: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('nsupdate', ['-y', key], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve(`${code} ${out}`));
    child.stdin.end(`server 127.0.0.1 ${s.dns}\nzone ${ZONE}.\n${line}\nsend\n`);
  });
}

const axfr = async (who: string) => s.dig('-y', keys[who]!, ZONE, 'AXFR');

beforeAll(async () => {
  // Transfers by key only: no address of the test's own may transfer without one.
  s = await startServer({ AXFR_ALLOW: '192.0.2.53/32' });
  const tokens: Record<string, string> = {};
  for (const who of ['edith', 'victor', 'stranger']) {
    cli(s.dir, 'users', 'add', who);
    tokens[who] = cli(s.dir, 'tokens', 'create', who).at(-1)!;
  }
  expect((await s.api('POST', '/teams', { name: 'crew' })).status).toBe(201);
  const adminToken = cli(s.dir, 'tokens', 'create', 'admin').at(-1)!;
  for (const [who, role] of [
    ['edith', 'editor'],
    ['victor', 'viewer'],
  ] as const)
    await join(overHttp(s.http), 'crew', adminToken, { username: who, token: tokens[who]! }, role);
  expect((await s.api('POST', '/domains', { name: ZONE, team: 'crew' })).status).toBe(201);
  for (const who of ['edith', 'victor', 'stranger']) {
    const res = await as(tokens[who]!, 'POST', '/tsig-keys', { name: `${who}-key` });
    expect(res.status).toBe(201);
    keys[who] = ((await res.json()) as { nsupdate: string }).nsupdate;
  }
  expect(await eventually(async () => /NOERROR/.test(await s.dig('-y', keys.edith!, ZONE, 'SOA')))).toBe(true);
});
afterAll(() => s?.stop());

it("an editor's key updates the team's zone; a viewer's and a stranger's are REFUSED and change nothing", async () => {
  expect(await nsupdate(keys.edith!, `update add edith.${ZONE}. 60 TXT "by the editor"`)).toMatch(/^0 /);
  expect(await nsupdate(keys.victor!, `update add victor.${ZONE}. 60 TXT "by the viewer"`)).toMatch(/REFUSED/);
  expect(await nsupdate(keys.stranger!, `update add stranger.${ZONE}. 60 TXT "by a stranger"`)).toMatch(/REFUSED/);
  expect((await s.dig('+short', `edith.${ZONE}`, 'TXT')).trim()).toBe('"by the editor"');
  expect((await s.dig('+short', `victor.${ZONE}`, 'TXT')).trim()).toBe('');
  expect((await s.dig('+short', `stranger.${ZONE}`, 'TXT')).trim()).toBe('');
  // The history names the member who made the change, through their key.
  const [latest] = (await (await s.api('GET', `/domains/${ZONE}/changes`)).json()) as Array<{ actor: { username: string; credential: string } }>;
  expect(latest!.actor).toEqual({ username: 'edith', credential: 'tsig:edith-key' });
});

it("a viewer's key transfers the zone, a stranger's does not, and a member removed loses it", async () => {
  expect(await axfr('victor')).toMatch(new RegExp(`edith\\.${ZONE.replace('.', '\\.')}\\.\\s+60\\s+IN\\s+TXT`));
  expect(await axfr('stranger')).toMatch(/Transfer failed/);
  expect((await s.api('DELETE', '/teams/crew/members/victor')).status).toBe(204);
  expect(await eventually(async () => /Transfer failed/.test(await axfr('victor')), 50, 100)).toBe(true);
});
