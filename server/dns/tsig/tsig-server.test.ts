/**
 * TSIG on the running server, asked by the real `dig -y` and `kdig -y` (which verify our MACs
 * and say so when one is wrong): keys made with the CLI work at once for every algorithm, a
 * transfer signed with the zone owner's key succeeds from an address outside AXFR_ALLOW,
 * while unsigned, wrongly signed, another user's or revoked keys are refused.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TSIG_ALGORITHM_NAMES } from '../../core/tsig-rules';
import { cli } from '../../testing/server-process';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';
import { waitUntil } from '../../testing/wait-until';

const run = promisify(execFile);
/** How dig and kdig report a MAC they could not verify. */
const TSIG_FAILURE = /couldn't verify|could not be validated|failed to verify|tsig verify failure/i;

let s: RunningServer;
/** The -y argument of each key made for the admin, by algorithm. */
const keys = new Map<string, string>();

async function tool(name: 'dig' | 'kdig', ...args: string[]): Promise<string> {
  const patience = name === 'dig' ? ['+time=2', '+tries=1'] : ['+timeout=2', '+retry=0'];
  const out = await run(name, ['@127.0.0.1', '-p', String(s.dns), ...patience, ...args]).catch((e: { stdout?: string; stderr?: string }) => e);
  return `${out.stdout ?? ''}${out.stderr ?? ''}`;
}

beforeAll(async () => {
  // 127.0.0.1 is outside AXFR_ALLOW: only a key can open transfers to the tests.
  s = await startServer({ AXFR_ALLOW: '192.0.2.1/32' });
  expect((await s.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  expect((await s.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.80' })).status).toBe(200);
  for (const algorithm of TSIG_ALGORITHM_NAMES) keys.set(algorithm, cli(s.dir, 'tsig', 'create', 'admin', `${algorithm}.key`, '--algorithm', algorithm).at(-1)!);
  cli(s.dir, 'users', 'add', 'mallory');
  keys.set('mallory', cli(s.dir, 'tsig', 'create', 'mallory', 'mallory.key').at(-1)!);
  keys.set('acme', cli(s.dir, 'tsig', 'create', 'admin', 'acme.key', '--names', '_acme-challenge,_acme-challenge.*', '--types', 'TXT').at(-1)!);
  // The DNS thread picks keys up within a second.
  const ready = await eventually(async () => /status: NOERROR/.test(await tool('dig', '-y', keys.get('acme')!, 'example.com', 'SOA')), 50, 100);
  expect(ready).toBe(true);
});
afterAll(() => s?.stop());

describe.each(['dig', 'kdig'] as const)('%s -y', (name) => {
  it.each([...TSIG_ALGORITHM_NAMES])('%s: a signed query is answered, signed with a MAC it verifies, over UDP and TCP', async (algorithm) => {
    for (const transport of ['+notcp', '+tcp']) {
      const out = await tool(name, '-y', keys.get(algorithm)!, transport, 'www.example.com', 'A');
      expect(out).toMatch(/status: NOERROR/);
      expect(out).toMatch(/www\.example\.com\.\s+\d+\s+IN\s+A\s+192\.0\.2\.80/);
      // dig breaks a long MAC in two; both show the MAC size, then the original ID and the error.
      expect(out).toMatch(new RegExp(`${algorithm}\\.key\\.\\s+0\\s+ANY\\s+TSIG\\s+${algorithm}\\. \\d+ 300 \\d+ [^\\n]+ \\d+ NOERROR 0`));
      expect(out).not.toMatch(TSIG_FAILURE);
    }
  });

  it('transfers the zone with the owner key from outside AXFR_ALLOW, every message verified', async () => {
    const out = await tool(name, '-y', keys.get('hmac-sha512')!, '+tcp', 'example.com', 'AXFR');
    expect(out).toMatch(/www\.example\.com\.\s+\d+\s+IN\s+A\s+192\.0\.2\.80/);
    expect(out.match(/IN\s+SOA/g)).toHaveLength(2);
    expect(out).not.toMatch(TSIG_FAILURE);
    expect(out).not.toMatch(/failed|REFUSED/i);
  });
});

describe('refusals', () => {
  it('refuses a transfer without a key, and with another user’s key or a names-only key (signed REFUSED)', async () => {
    expect(await tool('dig', '+tcp', 'example.com', 'AXFR')).toMatch(/Transfer failed/);
    for (const k of ['mallory', 'acme']) {
      const out = await tool('dig', '-y', keys.get(k)!, '+tcp', 'example.com', 'AXFR');
      expect(out).toMatch(/Transfer failed/);
      expect(out).not.toMatch(TSIG_FAILURE);
      expect(out).not.toMatch(/192\.0\.2\.80/);
    }
  });

  it('answers a wrong secret with NOTAUTH and BADSIG, and an unknown key with BADKEY', async () => {
    const [alg, keyName] = keys.get('hmac-sha256')!.split(':');
    const wrong = await tool('dig', '-y', `${alg}:${keyName}:${Buffer.alloc(32, 1).toString('base64')}`, 'www.example.com', 'A');
    expect(wrong).toMatch(/status: NOTAUTH/);
    expect(wrong).toMatch(/TSIG\s+hmac-sha256\. \d+ 300 0 +\d+ BADSIG/);
    expect(wrong).not.toMatch(/192\.0\.2\.80/);
    const unknown = await tool('kdig', '-y', `hmac-sha256:no-such.key:${Buffer.alloc(32, 1).toString('base64')}`, 'www.example.com', 'A');
    expect(unknown).toMatch(/status: BADKEY/);
  });

  // How soon (docs/security.md: within a second) is npm run bench -- defences's figure.
  it('stops accepting a key once the CLI revokes it', async () => {
    const y = cli(s.dir, 'tsig', 'create', 'admin', 'short-lived.key').at(-1)!;
    await waitUntil('the new key signs', async () => /status: NOERROR/.test(await tool('dig', '-y', y, 'example.com', 'SOA')));
    cli(s.dir, 'tsig', 'revoke', 'short-lived.key');
    await waitUntil('the revoked key is refused with BADKEY', async () => /BADKEY/.test(await tool('dig', '-y', y, 'example.com', 'SOA')));
  });

  it('never writes a secret to the log', () => {
    const text = JSON.stringify(s.logs);
    for (const y of keys.values()) expect(text).not.toContain(y.split(':')[2]);
  });
});
