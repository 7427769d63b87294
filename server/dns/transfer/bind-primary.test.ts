/**
 * A secondary zone of a real BIND 9 hidden primary: transfers signed with a TSIG key, BIND's NOTIFY
 * (also-notify, signed) acted on, and a change reloaded on the primary followed by IXFR (BIND keeps
 * the differences in its journal, `ixfr-from-differences`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPath } from '../../testing/daemons';
import { primaryZoneFile } from '../../testing/knot-primary';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
const SECRET = Buffer.alloc(32, 5).toString('base64');
let zd: RunningServer;
let named: ChildProcess;
let output = '';
let port = 0;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-bind-primary-'));

beforeAll(async () => {
  zd = await startServer();
  expect((await zd.api('POST', '/tsig-keys', { name: 'bind-xfr', secret: SECRET })).status).toBe(201);
  port = await freePort();
  fs.writeFileSync(path.join(dir, 'bind.test.zone'), primaryZoneFile('bind.test', 1));
  fs.writeFileSync(
    path.join(dir, 'named.conf'),
    `key "bind-xfr" { algorithm hmac-sha256; secret "${SECRET}"; };
options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  notify explicit;
  also-notify { 127.0.0.1 port ${zd.dns} key "bind-xfr"; };
  allow-transfer { key "bind-xfr"; };
};
controls { };
zone "bind.test" { type primary; file "bind.test.zone"; ixfr-from-differences yes; };
`,
  );
  named = spawn(daemonPath('named', 'bind9'), ['-g', '-c', path.join(dir, 'named.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  named.stdout!.on('data', (d) => (output += d));
  named.stderr!.on('data', (d) => (output += d));
  const up = await eventually(
    async () =>
      (
        await run('dig', ['@127.0.0.1', '-p', String(port), '+short', 'bind.test', 'SOA']).then(
          (r) => r.stdout,
          () => '',
        )
      ).includes(' 1 '),
    100,
    100,
  );
  expect(up, output).toBe(true);
});

afterAll(async () => {
  if (named && named.exitCode === null) {
    const exited = new Promise((r) => named.once('exit', r));
    named.kill('SIGTERM');
    await exited;
  }
  await zd?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a secondary zone of a BIND primary', () => {
  it('is transferred with TSIG, and follows a reload on the primary by NOTIFY and IXFR', async () => {
    const res = await zd.api('POST', '/domains', { name: 'bind.test', kind: 'secondary', primaries: [`127.0.0.1:${port}`], tsig_key: 'bind-xfr' });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await eventually(async () => (await zd.dig('+short', 'www.bind.test', 'A')).trim() === '192.0.2.10', 100, 100), output).toBe(true);
    // The operator edits the zone file and reloads (SIGHUP): BIND computes the differences and NOTIFYs.
    fs.writeFileSync(path.join(dir, 'bind.test.zone'), `${primaryZoneFile('bind.test', 2)}reloaded IN A 192.0.2.123\n`);
    named.kill('SIGHUP');
    expect(await eventually(async () => (await zd.dig('+short', 'reloaded.bind.test', 'A')).trim() === '192.0.2.123', 100, 100), output).toBe(true);
    const history = (await (await zd.api('GET', '/domains/bind.test/changes')).json()) as { source: string; comment: string; serial_after: number }[];
    expect(history[0]).toMatchObject({ source: 'transfer', serial_after: 2 });
    expect(history[0]!.comment).toMatch(/by IXFR/);
    expect(output).toMatch(/AXFR started: TSIG bind-xfr \(serial 1\)/);
    expect(output).toMatch(/IXFR started: TSIG bind-xfr \(serial 1 -> 2\)/);
  });
});
