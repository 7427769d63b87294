/**
 * Two zonedeck processes on one PostgreSQL database: a change made through
 * either node's API is answered by the other's DNS (how soon is `npm run bench -- nodes`'s
 * figure, not an assertion here), zones created and deleted on one come and go on the other, both serve the same catalog zone, the API rate limit and the
 * sign-in throttle count requests to both nodes together, and a node whose LISTEN connection
 * is cut reconnects and catches up on what it missed. Needs TEST_DATABASE_URL (`npm test` sets
 * it); without it every test here fails and says how to set it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startCluster, testDatabaseUrl, type Cluster, type Node } from '../../testing/cluster';
import { waitUntil } from '../../testing/wait-until';

const run = promisify(execFile);
const CATALOG = 'catalog.nodes.test';

let cluster: Cluster;
let one: Node;
let two: Node;

/** The +short answer lines of a node's DNS (none on a timeout). */
async function ask(node: Node, name: string, type: string): Promise<string[]> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(node.dns), '+short', '+time=1', '+tries=1', name, type]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function status(node: Node, name: string): Promise<string> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(node.dns), '+time=1', '+tries=1', name, 'SOA']);
  return /status: ([A-Z]+)/.exec(stdout)?.[1] ?? 'none';
}

/** Writes a TXT record through `from`'s API (a token of its own: the per-token limit here is small). */
async function write(from: Node, name: string, content: string): Promise<void> {
  const res = await api(from, await cluster.token(), 'POST', '/domains/example.test/records', { name, record_type: 'TXT', content });
  expect(res.status, await res.clone().text()).toBe(200);
}

beforeAll(async () => {
  const adminUrl = testDatabaseUrl('the many-nodes tests');
  cluster = await startCluster(adminUrl, 2, { RATE_LIMIT_TOKEN: '2,4', CATALOG_ZONE: CATALOG });
  [one, two] = cluster.nodes as [Node, Node];
  const res = await api(one, await cluster.token(), 'POST', '/domains', { name: 'example.test' });
  expect(res.status).toBe(201);
  await waitUntil('node 2 answers for example.test', async () => (await status(two, 'example.test')) === 'NOERROR');
});

afterAll(async () => {
  await cluster?.stop();
});

describe('two nodes on one PostgreSQL', () => {
  it.each([
    ['1', '2'],
    ['2', '1'],
  ])('answers a write made through node %s on node %s’s DNS', async (from, to) => {
    const [writer, reader] = from === '1' ? [one, two] : [two, one];
    const content = `written on node ${from}`;
    await write(writer, `w${from}`, content);
    await waitUntil(`node ${to} answers the TXT written on node ${from}`, async () => (await ask(reader, `w${from}.example.test`, 'TXT')).includes(`"${content}"`));
  });

  it('creates a zone on one node and deletes it on the other, each seen by the other', async () => {
    expect((await api(one, await cluster.token(), 'POST', '/domains', { name: 'fleeting.test' })).status).toBe(201);
    await waitUntil('node 2 answers for the zone made on node 1', async () => (await status(two, 'fleeting.test')) === 'NOERROR');
    expect((await api(two, await cluster.token(), 'DELETE', '/domains/fleeting.test')).status).toBe(200);
    await waitUntil('node 1 refuses the zone deleted on node 2', async () => (await status(one, 'fleeting.test')) === 'REFUSED');
  });

  it('serves one catalog zone on both nodes, at the same serial, listing the zones', async () => {
    expect((await api(two, await cluster.token(), 'POST', '/domains', { name: 'listed.test' })).status).toBe(201);
    const members = async (node: Node) => (await run('dig', ['@127.0.0.1', '-p', String(node.dns), '+noall', '+answer', CATALOG, 'AXFR'])).stdout;
    const listed = (text: string) => /\.zones\.catalog\.nodes\.test\.\s+0\s+IN\s+PTR\s+listed\.test\./.test(text);
    await waitUntil('both catalogs list the zone made on node 2', async () => listed(await members(one)) && listed(await members(two)));
    const [soa1] = await ask(one, CATALOG, 'SOA');
    const [soa2] = await ask(two, CATALOG, 'SOA');
    expect(soa1).toBe(soa2);
    expect(await members(one)).toMatch(/example\.test\./);
    // Nobody may take the catalog's name.
    expect((await api(one, await cluster.token(), 'POST', '/domains', { name: CATALOG })).status).toBe(409);
  });

  it('holds the per-token rate limit across both nodes', async () => {
    // RATE_LIMIT_TOKEN=2,4: four requests at once, then two a second, for both nodes together.
    const token = await cluster.token();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api(i % 2 === 0 ? one : two, token, 'GET', '/domains')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const res = await api(one, token, 'GET', '/domains');
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });

  it('holds the sign-in throttle across both nodes', async () => {
    const signIn = (node: Node) =>
      fetch(`${node.url}/bff/sign-in`, {
        method: 'POST',
        headers: { origin: node.url, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'not the password' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(i % 2 === 0 ? one : two)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    for (const node of [one, two]) {
      const res = await signIn(node);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    }
  });

  it('reconnects a node whose LISTEN connection is killed and catches up on what changed meanwhile', async () => {
    const admin = new pg.Client({ connectionString: testDatabaseUrl('the many-nodes tests') });
    await admin.connect();
    const database = new URL(cluster.databaseUrl).pathname.slice(1);
    try {
      // Kill both nodes' LISTEN connections, and keep them from reconnecting while a change commits.
      await admin.query(`alter database ${database} allow_connections false`);
      const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN%' and datname = $1`, [database]);
      expect(killed.rowCount).toBe(2);
      // Committed with no node listening: its NOTIFY reaches no one.
      const zone = (await cluster.store.domains.byName('example.test'))!;
      await cluster.services.records.create(zone.user_id, 'example.test', { name: 'meanwhile', record_type: 'TXT', content: 'while nobody listened' });
      // The nodes try to reconnect meanwhile, and fail: their backoff grows.
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await admin.query(`alter database ${database} allow_connections true`);
      await admin.end();
    }
    // Reconnected, each node reconciles (as after every connect of the feed) and answers it.
    for (const [i, node] of [one, two].entries()) {
      await waitUntil(`node ${i + 1} answers what changed while it was away`, async () => (await ask(node, 'meanwhile.example.test', 'TXT')).includes('"while nobody listened"'));
    }
    await waitUntil('node 2 logs that it follows other nodes again', () => two.logs().some((l) => l.msg === 'following zone changes of other nodes' && l.reconnect === true));
    // And it listens again: the next change arrives.
    await write(one, 'after', 'after the reconnect');
    await waitUntil('node 2 answers the change made after the reconnect', async () => (await ask(two, 'after.example.test', 'TXT')).includes('"after the reconnect"'));
  });
});
