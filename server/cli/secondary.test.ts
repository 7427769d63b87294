/** `zones secondary` in the admin CLI: a secondary zone of a real Knot primary, which the running server transfers and answers. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnotPrimary, primaryZoneFile } from '../testing/knot-primary';
import { eventually } from '../testing/test-server';
import { cli, startServer, tempDataDir, type ServerProcess } from '../testing/server-process';

const run = promisify(execFile);
let server: ServerProcess;
let knot: KnotPrimary;
const dataDir = tempDataDir();

beforeAll(async () => {
  server = await startServer({ DNS_PORT: '0' }, dataDir);
  knot = await KnotPrimary.start([{ name: 'cli.test', file: primaryZoneFile('cli.test', 4) }], server.dnsPort!);
});

afterAll(async () => {
  await knot?.stop(true);
  await server?.stop();
});

describe('zones secondary', () => {
  it('makes a secondary zone the running server transfers and answers; a primary by name is refused', async () => {
    const out = cli(dataDir, 'zones', 'secondary', 'admin', 'cli.test', knot.address);
    expect(out.join('\n')).toMatch(new RegExp(`secondary zone cli\\.test of ${knot.address.replace(/\./g, '\\.')} for admin`));
    const answer = async () => (await run('dig', ['@127.0.0.1', '-p', String(server.dnsPort), '+short', '+time=1', '+tries=1', 'www.cli.test', 'A']).catch(() => ({ stdout: '' }))).stdout.trim();
    expect(await eventually(async () => (await answer()) === '192.0.2.10', 100, 100)).toBe(true);
    expect(() => cli(dataDir, 'zones', 'secondary', 'admin', 'other.test', 'ns1.example.com:53')).toThrow(/primaries: .*not an IP address/);
  });
});
