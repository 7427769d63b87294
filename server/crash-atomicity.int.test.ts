/**
 * A crash in the middle of a large write leaves all of it or none of it, on SQLite and on
 * PostgreSQL: the server process killed with SIGKILL while it imports a zone file of 20,000
 * records, applies a template to 20 zones, replaces an address across 20 zones in one batch, or
 * takes a 10,000-record secondary zone from a real Knot primary. Each write is made once whole
 * (which tells how long it takes and what "all" is), then made again and killed inside that time; the database is read straight after each kill, before any restart, and must
 * hold the write whole or not at all; then the server starts on it again. PostgreSQL needs
 * TEST_DATABASE_URL (`npm test` sets it); without it that half says why and is skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { KnotPrimary } from './testing/knot-primary';
import { createPostgresDatabase, TEST_SECRETS_KEY } from './testing/postgres-database';
import { runCli, startServer, tempDataDir, type ServerProcess } from './testing/server-process';
import { waitUntil } from './testing/wait-until';

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('crash-atomicity.int.test.ts: the PostgreSQL half is skipped: TEST_DATABASE_URL is not set (npm test sets it)');

/** One store under test: the settings a server starts with on it, and the database read straight, as a crash left it. */
interface Bench {
  name: string;
  /** Records of the zone file imported, and of the secondary zone transferred. */
  imported: number;
  transferred: number;
  dir: string;
  env: Record<string, string>;
  count(sql: string, ...params: string[]): Promise<number>;
  close(): Promise<void>;
}

function sqliteBench(): Bench {
  const dir = tempDataDir();
  return {
    name: 'SQLite',
    imported: 20_000,
    transferred: 10_000,
    dir,
    env: { DNS_PORT: '0' },
    async count(sql, ...params) {
      // Read-write, as the next start opens it: SQLite replays its write-ahead log on open.
      const db = new Database(path.join(dir, 'zonedeck.db'));
      try {
        return Number(Object.values(db.prepare(sql).get(...params) as object)[0]);
      } finally {
        db.close();
      }
    },
    async close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBench(adminUrl: string): Promise<Bench> {
  const db = await createPostgresDatabase(adminUrl);
  const dir = tempDataDir();
  return {
    name: 'PostgreSQL',
    imported: 20_000,
    transferred: 10_000,
    dir,
    env: { DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY, DNS_PORT: '0' },
    async count(sql, ...params) {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        let n = 0;
        const { rows } = await c.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        );
        return Number(Object.values(rows[0] as object)[0]);
      } finally {
        await c.end();
      }
    },
    async close() {
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A server on a bench, with an admin's token, killed and started again by the test. */
class Target {
  server: ServerProcess | undefined;
  token = '';
  constructor(readonly bench: Bench) {}

  async start(): Promise<void> {
    this.server = await startServer(this.bench.env, this.bench.dir);
    if (!this.token) {
      const made = await runCli(this.bench.dir, ['tokens', 'create', 'admin'], this.bench.env);
      expect(made.status, made.stderr).toBe(0);
      this.token = made.stdout.trim().split('\n').at(-1)!;
    }
  }

  async kill(): Promise<void> {
    await this.server?.stop('SIGKILL');
    this.server = undefined;
  }

  api(method: string, url: string, body?: unknown, type = 'application/json'): Promise<Response> {
    return fetch(`${this.server!.url}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': type },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async ok<T>(method: string, url: string, body?: unknown, type?: string): Promise<T> {
    const res = await this.api(method, url, body, type);
    const text = await res.text();
    expect(res.status, `${method} ${url}: ${text.slice(0, 300)}`).toBeLessThan(300);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/** A large write, made anew in each round under the round's own names: `state` counts how much of it the database holds. */
interface LargeWrite {
  what(b: Bench): string;
  /** The count of a whole write. */
  all(b: Bench): number;
  prepare(t: Target, round: number): Promise<void>;
  /** Makes the write; resolves once it is done (or the server is gone). */
  send(t: Target, round: number): Promise<void>;
  state(b: Bench, round: number): Promise<number>;
}

/**
 * Resolves once the request is answered, or its connection dies with the server. An answer is
 * 2xx (a large write the server refused would prove nothing), unless the server was killed.
 */
const answered = (t: Target, res: Promise<Response>) =>
  res.then(
    async (r) => {
      const text = await r.text();
      if (t.server) expect(r.status, text.slice(0, 300)).toBeLessThan(300);
    },
    () => undefined,
  );

const importWrite: LargeWrite = {
  what: (b) => `a zone file of ${b.imported.toLocaleString('en')} records imported`,
  all: (b) => b.imported,
  async prepare(t, round) {
    await t.ok('POST', '/domains', { name: `import${round}.test` });
  },
  send(t, round) {
    const text = Array.from({ length: t.bench.imported }, (_, i) => `h${i} 300 IN A 10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`).join('\n');
    return answered(t, t.api('POST', `/domains/import${round}.test/zone`, `${text}\n`, 'text/dns'));
  },
  state: (b, round) => b.count("select count(*) as n from records r join domains d on d.id = r.domain_id where d.name = ? and r.record_type = 'A'", `import${round}.test`),
};

const TEMPLATE_ZONES = 20;
const TEMPLATE_RECORDS = 300;
const templateIds = new Map<number, number>();
const templateWrite: LargeWrite = {
  what: () => `a template of ${TEMPLATE_RECORDS} records applied to ${TEMPLATE_ZONES} zones`,
  all: () => TEMPLATE_ZONES * TEMPLATE_RECORDS,
  async prepare(t, round) {
    for (let z = 0; z < TEMPLATE_ZONES; z++) await t.ok('POST', '/domains', { name: `tpl${z}-r${round}.test` });
    const records = Array.from({ length: TEMPLATE_RECORDS }, (_, i) => `"tpl r${round} ${i} ${'t'.repeat(100)}"`);
    templateIds.set(round, (await t.ok<{ id: number }>('POST', '/templates', { name: `crash r${round}`, rrsets: [{ name: 'tpl', record_type: 'TXT', records }] })).id);
  },
  send(t, round) {
    const zones = Array.from({ length: TEMPLATE_ZONES }, (_, z) => `tpl${z}-r${round}.test`);
    return answered(t, t.api('POST', `/templates/${templateIds.get(round)}/apply`, { zones, mode: 'merge' }));
  },
  state: (b, round) => b.count("select count(*) as n from records where record_type = 'TXT' and content like ?", `tpl r${round} %`),
};

const BULK_ZONES = 20;
const BULK_RECORDS = 300;
const bulkWrite: LargeWrite = {
  what: () => `an address replaced in ${(BULK_ZONES * BULK_RECORDS).toLocaleString('en')} records of ${BULK_ZONES} zones in one batch`,
  all: () => BULK_ZONES * BULK_RECORDS,
  async prepare(t, round) {
    for (let z = 0; z < BULK_ZONES; z++) {
      const zone = `bulk${z}-r${round}.test`;
      await t.ok('POST', '/domains', { name: zone });
      const text = Array.from({ length: BULK_RECORDS }, (_, i) => `b${i} 300 IN A 198.51.100.${round + 1}`).join('\n');
      await t.ok('POST', `/domains/${zone}/zone`, `${text}\n`, 'text/dns');
    }
  },
  send(t, round) {
    return answered(t, t.api('POST', '/records/bulk', { content: `198.51.100.${round + 1}`, match: 'exact', action: 'replace', replacement: `203.0.113.${round + 1}` }));
  },
  state: (b, round) => b.count('select count(*) as n from records where content = ?', `203.0.113.${round + 1}`),
};

/** The primary every round's secondary zone is taken from: one zone of the bench's `transferred` addresses a round. */
let knot: KnotPrimary | undefined;
const transferWrite: LargeWrite = {
  what: (b) => `a secondary zone of ${b.transferred.toLocaleString('en')} records transferred from Knot`,
  all: (b) => b.transferred,
  async prepare() {},
  async send(t, round) {
    const res = await t.api('POST', '/domains', { name: `xfr${round}.test`, kind: 'secondary', primaries: [knot!.address] }).catch(() => null);
    if (res?.status !== 201) return;
    // Done once the zone answers the primary's serial (or the server is gone).
    await waitUntil(
      'the transfer',
      async () => {
        const zone = await t.api('GET', `/domains/xfr${round}.test`).catch(() => null);
        if (!zone) return true;
        const body = (await zone.json()) as { transfer?: { state: string } };
        return body.transfer?.state === 'ok';
      },
      { limitMs: 120_000 },
    );
  },
  state: (b, round) => b.count("select count(*) as n from records r join domains d on d.id = r.domain_id where d.name = ? and r.record_type = 'A'", `xfr${round}.test`),
};

const WRITES = [importWrite, templateWrite, bulkWrite, transferWrite];
/** Where inside a whole write's time the server is killed. */
const KILL_AT = [0.6];

function knotZone(round: number, records: number): string {
  const lines = [`$ORIGIN xfr${round}.test.`, '@ 3600 IN SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 300', '@ 3600 IN NS ns1.example.net.'];
  for (let i = 0; i < records; i++) lines.push(`h${i} 300 IN A 10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
  return `${lines.join('\n')}\n`;
}

async function crashEach(bench: Bench): Promise<string[]> {
  const t = new Target(bench);
  const figures: string[] = [];
  await t.start();
  try {
    knot ??= await KnotPrimary.start(
      [0, 1].map((round) => ({ name: `xfr${round}.test`, file: knotZone(round, bench.transferred) })),
      t.server!.dnsPort!,
    );
    for (const write of WRITES) {
      // Round 0, whole: how long it takes, and that "all" is what it leaves.
      await write.prepare(t, 0);
      const began = Date.now();
      await write.send(t, 0);
      const took = Date.now() - began;
      expect(await write.state(bench, 0), `${write.what(bench)}, whole`).toBe(write.all(bench));
      const outcomes: string[] = [];
      for (const [i, at] of KILL_AT.entries()) {
        const round = i + 1;
        await write.prepare(t, round);
        const sending = write.send(t, round);
        await new Promise((r) => setTimeout(r, Math.round(took * at)));
        await t.kill();
        await sending;
        const held = await write.state(bench, round);
        // All of it or none of it: never a part.
        expect([0, write.all(bench)], `${bench.name}: ${write.what(bench)}, killed at ${Math.round(at * 100)}% of its time`).toContain(held);
        outcomes.push(`${Math.round(took * at)} ms: ${held === 0 ? 'none' : 'all'}`);
        await t.start();
        // The start after the crash serves what the database holds.
        expect((await t.api('GET', '/domains')).status).toBe(200);
      }
      figures.push(`${bench.name}: ${write.what(bench)} took ${took} ms whole; killed at ${outcomes.join(', at ')}`);
    }
  } finally {
    await t.kill();
    await knot?.stop(true);
    knot = undefined;
  }
  return figures;
}

const benches: Bench[] = [];
afterAll(async () => {
  for (const b of benches) await b.close();
});

describe('a crash inside a large write', () => {
  it('on SQLite leaves all of it or none of it', async () => {
    const bench = sqliteBench();
    benches.push(bench);
    console.log((await crashEach(bench)).join('\n'));
  }, 600_000);

  it.skipIf(!pgUrl)(
    'on PostgreSQL leaves all of it or none of it',
    async () => {
      const bench = await postgresBench(pgUrl!);
      benches.push(bench);
      console.log((await crashEach(bench)).join('\n'));
    },
    600_000,
  );
});
