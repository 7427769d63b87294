/**
 * The server's wall clock stepped an hour forward, then an hour behind real time, then back, as NTP
 * or a resumed VM would (server/testing/clock-step.ts moves Date in every thread and leaves the
 * monotonic clock alone). After each step, what a user would notice: a write gives a newer serial
 * (API and dig), delv validates old and newly signed answers with the zone's key as trust anchor
 * on this machine's real clock, a dashboard session from before the forward step still works, a
 * TOTP user signs in with the code their app shows (once), and the query statistics count each
 * query once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepClock } from './testing/clock-step';
import { delv } from './testing/delv';
import { cli, startServer, tempDataDir, type ServerProcess } from './testing/server-process';
import { waitUntil } from './testing/wait-until';

const run = promisify(execFile);
const HOUR = 3_600_000;
const ZONE = 'clock.test';
/** A zone of its own for the statistics, so nothing else is counted in it. */
const COUNTED = 'counted.test';

let s: ServerProcess;
let token: string;
let clockFile: string;
let anchorFile: string;
let totp: TOTP;
let session: { cookie: string; csrf: string };
let lastSerial = 0;

const api = (method: string, url: string, body?: unknown) =>
  fetch(`${s.url}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const dig = async (...args: string[]) => (await run('dig', ['@127.0.0.1', '-p', String(s.dnsPort), '+time=2', '+tries=2', ...args])).stdout;
const bff = (method: string, url: string, headers: Record<string, string> = {}, body?: unknown) =>
  fetch(`${s.url}/bff${url}`, { method, headers: { origin: s.url, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });

/** A sign-in to the dashboard as admin, with a second factor's code when one is given. */
async function signIn(code?: string): Promise<Response> {
  return bff('POST', '/sign-in', {}, { username: 'admin', password: s.adminPassword, ...(code === undefined ? {} : { code }) });
}

/** Adds a record and checks the serial moved on, in the API and in what dig gets. */
async function writeAndCheckSerial(name: string): Promise<void> {
  expect((await api('POST', `/domains/${ZONE}/records`, { name, record_type: 'A', content: '192.0.2.7' })).status).toBe(200);
  const serial = ((await (await api('GET', `/domains/${ZONE}`)).json()) as { serial_number: number }).serial_number;
  expect(serial).toBeGreaterThan(lastSerial);
  lastSerial = serial;
  await waitUntil(`dig sees serial ${serial}`, async () => (await dig('+short', ZONE, 'SOA')).split(' ')[2] === String(serial));
}

/** delv validates an answer signed before the steps and one signed just now (the record `fresh`). */
async function validates(fresh: string): Promise<void> {
  const server = { host: '127.0.0.1', port: s.dnsPort! };
  for (const name of [`www.${ZONE}`, `${fresh}.${ZONE}`]) {
    const answer = await delv(anchorFile, server, name, 'A', ZONE);
    expect(answer.validated, answer.output).toBe(true);
  }
  const denial = await delv(anchorFile, server, `nothing-here.${ZONE}`, 'A', ZONE);
  expect(denial.validated, denial.output).toBe(true);
}

/** The queries the statistics hold for COUNTED from `from` to `to` ms from real now (by default a range wide enough for any step). */
async function counted(from = -3 * HOUR, to = 3 * HOUR): Promise<number> {
  const range = `from=${new Date(Date.now() + from).toISOString()}&to=${new Date(Date.now() + to).toISOString()}&step=${to - from > 2 * HOUR ? 3600 : 60}`;
  const res = await api('GET', `/domains/${COUNTED}/stats?${range}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { totals: { queries: number } }).totals.queries;
}

async function ask(times: number): Promise<void> {
  for (let i = 0; i < times; i++) expect(await dig('+short', `www.${COUNTED}`, 'A')).toContain('192.0.2.1');
}

beforeAll(async () => {
  const dataDir = tempDataDir();
  clockFile = path.join(dataDir, 'clock-offset');
  s = await startServer({ DNS_PORT: '0', STATS_FLUSH_MS: '200' }, dataDir, { clockFile });
  token = cli(s.dataDir, 'tokens', 'create', 'admin').at(-1)!;
  for (const name of [ZONE, COUNTED]) expect((await api('POST', '/domains', { name, dnssec_enabled: name === ZONE })).status).toBe(201);
  expect((await api('POST', `/domains/${COUNTED}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  const { dnskey_records } = (await (await api('GET', `/domains/${ZONE}`)).json()) as { dnskey_records: string[] };
  // `clock.test. IN DNSKEY 257 3 13 <key>`: the key-signing key as delv's trust anchor.
  const [flags, protocol, algorithm, key] = dnskey_records
    .find((k) => k.includes(' 257 '))!
    .split(' ')
    .slice(3);
  anchorFile = path.join(s.dataDir, 'anchor.conf');
  fs.writeFileSync(anchorFile, `trust-anchors {\n  "${ZONE}." static-key ${flags} ${protocol} ${algorithm} "${key}";\n};\n`);
  await writeAndCheckSerial('www');

  // A dashboard session, then two-factor sign-in turned on (through the API token, which is not asked to sign in again).
  const signedIn = await signIn();
  expect(signedIn.status).toBe(200);
  session = { cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await signedIn.json()) as { csrf_token: string }).csrf_token };
  const { secret } = (await (await api('POST', '/account/totp')).json()) as { secret: string };
  totp = new TOTP({ secret: Secret.fromBase32(secret) });
  expect((await api('POST', '/account/totp/confirm', { code: totp.generate() })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await s?.stop();
  if (s) fs.rmSync(s.dataDir, { recursive: true, force: true });
});

describe('the clock stepped an hour either way', () => {
  it('an hour forward: newer serials, answers validate, the session lives on, a code from the stepped clock signs in', async () => {
    await ask(3);
    await waitUntil('3 queries counted', async () => (await counted()) === 3);
    // The main thread and the DNS thread both take the step.
    expect(await stepClock(clockFile, HOUR)).toBeGreaterThanOrEqual(2);
    await writeAndCheckSerial('forward');
    await validates('forward');
    expect((await bff('GET', '/session', { cookie: session.cookie })).status).toBe(200);
    // The user's phone is right; the server an hour ahead. Its app's code is an hour "old" for the server: refused (outside the window)...
    expect((await signIn(totp.generate())).status).toBe(401);
    // ...and a code for the server's time works, once: it is the step used last before the step back.
    const ahead = totp.generate({ timestamp: Date.now() + HOUR });
    expect((await signIn(ahead)).status).toBe(200);
    expect((await signIn(ahead)).status).toBe(401);
  });

  it('an hour behind real time: newer serials, answers validate, the code of the moment signs in once, queries are counted once each', async () => {
    await stepClock(clockFile, -HOUR);
    await writeAndCheckSerial('backward');
    await validates('backward');
    const behind = totp.generate({ timestamp: Date.now() - HOUR });
    expect((await signIn(behind)).status).toBe(200);
    expect((await signIn(behind)).status).toBe(401);
    await ask(4);
    await waitUntil('7 queries counted', async () => (await counted()) === 7);
    // Counted by the DNS thread in the minutes of its stepped clock, an hour back.
    expect(await counted(-HOUR - 10 * 60_000, -HOUR + 10 * 60_000)).toBe(4);
    expect((await bff('GET', '/session', { cookie: session.cookie })).status).toBe(200);
  });

  it('back to real time: newer serials, answers validate, the statistics still add up', async () => {
    await stepClock(clockFile, 0);
    await writeAndCheckSerial('back');
    await validates('back');
    await ask(2);
    await waitUntil('9 queries counted', async () => (await counted()) === 9);
    // The code of the next step (this one's may have confirmed the factor a moment ago).
    expect((await signIn(totp.generate({ timestamp: Date.now() + 30_000 }))).status).toBe(200);
  });
});
