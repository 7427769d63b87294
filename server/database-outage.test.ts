/**
 * PostgreSQL restarted, then stopped for 30 s, under two running nodes: the database as an
 * operator's bad day has it (a restart, a failover, an outage). On a cluster of this test's
 * own (own-postgres.ts), never the shared one. Under a write loop through node 1's API and a `dig`
 * loop against both nodes' DNS:
 * - DNS answers every query, from memory and signed (the zone has DNSSEC), while the database is gone;
 * - writes answer 503 `store_unavailable` with `Retry-After`, never 500, never no answer;
 * - `/readyz` is 503 saying why, `/healthz` stays 200, and both processes stay up;
 * - the dashboard's backend and the PowerDNS API answer 503 with `Retry-After` too;
 * - once the database is back, writes go through again by themselves, node 2's DNS answers
 *   what node 1 writes (its feed subscribed again, or its reconcile found the serials), and
 *   every write that was answered 2xx is stored exactly once.
 * Skipped, and says why, where PostgreSQL's programs are not installed. The figures it prints
 * (answers lost, time to resume) are docs/operations.md's.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { servicesFor } from './services';
import { openPostgresStore } from './store/postgres/postgres';
import { keyFromBase64, SecretBox } from './store/secret-box';
import type { Store } from './store/types';
import { ownPostgresMissing, startOwnPostgres, type OwnPostgres } from './testing/own-postgres';
import { TEST_SECRETS_KEY } from './testing/postgres-database';
import { startServer, type ServerProcess } from './testing/server-process';
import { waitUntil } from './testing/wait-until';

const run = promisify(execFile);
const ZONE = 'outage.test';
/** How long the database stays stopped: longer than a restart or a failover takes. */
const DOWN_MS = 30_000;
/** A request with no answer by then has hung: the test fails on it (a limit, not a timing). */
const NO_ANSWER_MS = 20_000;

const missing = ownPostgresMissing();
if (missing) console.warn(`database-outage.test.ts: skipped: ${missing}`);

let db: OwnPostgres;
let nodes: ServerProcess[] = [];
let store: Store;
let token: string;

beforeAll(async () => {
  if (missing) return;
  db = await startOwnPostgres();
  const env = { DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY, DNS_PORT: '0', DNS_THREADS: '1' };
  // One after the other: the first creates the schema and the admin user.
  for (let i = 0; i < 2; i++) nodes.push(await startServer(env));
  store = await openPostgresStore(db.url, new SecretBox(keyFromBase64(TEST_SECRETS_KEY)));
  const services = servicesFor(store, loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  token = (await services.accounts.createToken((await store.users.byUsername('admin'))!.id, 'outage test')).token;
  expect((await api('POST', '/domains', { name: ZONE, dnssec_enabled: true })).status).toBe(201);
  expect((await api('POST', `/domains/${ZONE}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  for (const node of nodes) await waitUntil(`node ${node.dnsPort} answers www, signed`, async () => signed(await ask(node, 'www', 'A', true)));
}, 120_000);

afterAll(async () => {
  for (const node of nodes) {
    await node.stop();
    fs.rmSync(node.dataDir, { recursive: true, force: true });
  }
  await store?.close();
  db?.destroy();
});

function api(method: string, path: string, body?: unknown, node = nodes[0]!): Promise<Response> {
  return fetch(`${node.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(NO_ANSWER_MS),
  });
}

/**
 * The +short answer of a node's DNS, asked as a stub resolver asks: up to three tries of 2 s each.
 * Nothing when no try was answered: a server that stopped answering during the outage answers none,
 * while a datagram lost on a loaded test machine is asked again, as any resolver would.
 */
async function ask(node: ServerProcess, label: string, type = 'A', dnssec = false): Promise<string[]> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(node.dnsPort), '+short', '+time=2', '+tries=3', ...(dnssec ? ['+dnssec'] : []), `${label}.${ZONE}`, type]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

interface Write {
  name: string;
  status: number;
  code?: string;
  retryAfter: string | null;
  sentAt: number;
  answeredAt: number;
}

interface Probe {
  down: boolean;
  readyz: number;
  reason?: string;
  healthz: number;
  /** A sign-in to the dashboard's backend and the PowerDNS API's zone list: their status, code and Retry-After. */
  bff: string;
  pdns: string;
}

/** Status, error code (the PowerDNS API has none) and Retry-After of an answer. */
async function answerOf(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
  return `${res.status} ${body.error?.code ?? '-'} ${res.headers.get('retry-after') ?? '-'}`;
}

/** www's address and its signature (the zone is signed), as `dig +short +dnssec` shows them. */
const signed = (answer: string[]) => answer.length === 2 && answer[0] === '192.0.2.1' && /^A \d+ \d+ \d+ /.test(answer[1]!);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `step` over and over until `until` resolves. */
async function loop(until: Promise<void>, step: () => Promise<void>, everyMs: number): Promise<void> {
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    await step();
    await pause(everyMs);
  }
}

/** A fault of the database: brings it down and up again, marking while it is known to be down; resolves once it accepts connections again. */
interface Fault {
  name: string;
  run(down: (isDown: boolean) => void, writes: Write[]): Promise<void>;
  /** Whether writes must have been refused meanwhile (a restart may be quicker than the write loop). */
  refuses: boolean;
}

/**
 * The fault under a write loop through node 1, a `dig` loop against both nodes and probes of
 * /readyz, /healthz, the dashboard's backend and the PowerDNS API; then what a user would notice.
 */
async function underLoad(fault: Fault): Promise<void> {
  const writes: Write[] = [];
  const answers: { node: number; answer: string[] }[] = [];
  const probes: Probe[] = [];
  let down = false;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));

  const writing = loop(
    finished,
    async () => {
      const name = `${fault.name}${writes.length}`;
      const sentAt = Date.now();
      const res = await api('POST', `/domains/${ZONE}/records`, { name, record_type: 'TXT', content: `"${name}"` }).catch(() => null);
      const body = res && !res.ok ? ((await res.json().catch(() => ({}))) as { error?: { code?: string } }) : undefined;
      writes.push({ name, status: res?.status ?? 0, code: body?.error?.code, retryAfter: res?.headers.get('retry-after') ?? null, sentAt, answeredAt: Date.now() });
    },
    20,
  );
  const digging = nodes.map((node, i) => loop(finished, async () => void answers.push({ node: i + 1, answer: await ask(node, 'www', 'A', true) }), 20));
  const probing = loop(
    finished,
    async () => {
      const wasDown = down;
      const ready = await fetch(`${nodes[0]!.url}/readyz`, { signal: AbortSignal.timeout(NO_ANSWER_MS) });
      const health = await fetch(`${nodes[1]!.url}/healthz`, { signal: AbortSignal.timeout(NO_ANSWER_MS) });
      // The faces that check a password or a token, only while the database is down (a sign-in's
      // password hash is work the two cores of a test machine would rather give the DNS).
      const node = nodes[1]!.url;
      const bff = wasDown
        ? await fetch(`${node}/bff/sign-in`, {
            method: 'POST',
            headers: { origin: node, 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: 'not the password' }),
            signal: AbortSignal.timeout(NO_ANSWER_MS),
          })
        : null;
      const pdns = wasDown ? await fetch(`${node}/api/v1/servers/localhost/zones`, { headers: { 'x-api-key': token }, signal: AbortSignal.timeout(NO_ANSWER_MS) }) : null;
      // Only a probe begun and ended while the database was down says what an outage looks like.
      probes.push({
        down: wasDown && down,
        readyz: ready.status,
        reason: ((await ready.json()) as { reason?: string }).reason,
        healthz: health.status,
        bff: bff ? await answerOf(bff) : '',
        pdns: pdns ? await answerOf(pdns) : '',
      });
    },
    200,
  );

  await waitUntil('writes go through before the fault', () => writes.some((w) => w.status === 200 && w.name.startsWith(fault.name)));
  const faultAt = Date.now();
  await fault.run((isDown) => (down = isDown), writes);
  const startedAt = Date.now();
  await waitUntil('writes go through again after the database is back', () => writes.some((w) => w.sentAt >= startedAt && w.status === 200));
  const resumed = writes.find((w) => w.sentAt >= startedAt && w.status === 200)!;
  // Node 2 hears of node 1's writes again.
  const after = writes.findLast((w) => w.status === 200)!;
  await waitUntil("node 2's DNS answers a write made through node 1 after the fault", async () => (await ask(nodes[1]!, after.name, 'TXT')).join() === `"${after.name}"`);
  const caughtUp = Date.now();
  finish();
  await Promise.all([writing, ...digging, probing]);

  // DNS answered every query, signed, throughout.
  expect(answers.filter((a) => !signed(a.answer))).toEqual([]);
  // Writes: 200, or 503 store_unavailable with Retry-After; nothing else.
  const refused = writes.filter((w) => w.status !== 200);
  expect(refused.filter((w) => w.status !== 503 || w.code !== 'store_unavailable' || w.retryAfter !== '5')).toEqual([]);
  if (fault.refuses) expect(refused.length).toBeGreaterThan(0);
  // /readyz said why; /healthz stayed up.
  const outage = probes.filter((p) => p.down);
  if (fault.refuses) expect(outage.length).toBeGreaterThan(0);
  expect(outage.every((p) => p.readyz === 503 && p.reason === 'the database does not answer')).toBe(true);
  expect(probes.every((p) => p.healthz === 200)).toBe(true);
  // The dashboard's backend and the PowerDNS API answer the outage alike.
  if (outage.length > 0) {
    expect(new Set(outage.map((p) => p.bff))).toEqual(new Set(['503 store_unavailable 5']));
    expect(new Set(outage.map((p) => p.pdns))).toEqual(new Set(['503 - 5']));
  }
  expect(nodes.every((n) => n.child.exitCode === null && n.child.signalCode === null)).toBe(true);

  // Every acknowledged write is stored, once; a refused one at most once.
  const stored = new Map<string, number>();
  const check = new pg.Client({ connectionString: db.url });
  await check.connect();
  try {
    const { rows } = await check.query<{ name: string; n: number }>(
      `select r.name, count(*)::int as n from records r join domains d on d.id = r.domain_id where d.name = $1 and r.record_type = 'TXT' group by r.name`,
      [ZONE],
    );
    for (const r of rows) stored.set(r.name.replace(`.${ZONE}`, ''), r.n);
  } finally {
    await check.end();
  }
  expect(writes.filter((w) => w.status === 200 && stored.get(w.name) !== 1).map((w) => w.name)).toEqual([]);
  expect([...stored.values()].filter((n) => n > 1)).toEqual([]);

  console.log(
    `database ${fault.name} (${Math.round((startedAt - faultAt) / 100) / 10} s from the fault until it accepted connections): DNS answered all ${answers.length} queries; ` +
      `${writes.length} writes, ${refused.length} answered 503, none lost; the first write after the database was back answered ${resumed.answeredAt - startedAt} ms after it accepted connections; ` +
      `node 2's DNS answered a later write ${caughtUp - startedAt} ms after; the slowest answer took ${Math.max(...writes.map((w) => w.answeredAt - w.sentAt))} ms`,
  );
}

describe.skipIf(missing)('PostgreSQL restarted and stopped under two nodes', () => {
  it('restarted (pg_ctl restart -m fast): DNS answers throughout, writes 200 or 503 with Retry-After, every acknowledged write stored once', async () => {
    await underLoad({
      name: 'restart',
      refuses: false,
      // Two seconds of load first, so that the restart meets writes and questions in flight.
      run: async () => {
        await pause(2000);
        await db.restart();
      },
    });
  }, 120_000);

  it('stopped for 30 s and started again: the same, with /readyz, the dashboard and the PowerDNS API saying why meanwhile', async () => {
    await underLoad({
      name: 'stop',
      refuses: true,
      async run(down, writes) {
        db.stop();
        down(true);
        const stoppedAt = Date.now();
        await waitUntil('a write is refused while the database is down', () => writes.some((w) => w.sentAt >= stoppedAt && w.status === 503));
        await pause(DOWN_MS - (Date.now() - stoppedAt));
        down(false);
        db.start();
      },
    });
  }, 180_000);
});
