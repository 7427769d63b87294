/**
 * On two nodes over one PostgreSQL: each node counts the queries
 * its own DNS answered and writes its own rows; either node's API answers the sum. Needs
 * TEST_DATABASE_URL (`npm test` sets it).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startCluster, testDatabaseUrl, type Cluster, type Node } from '../../testing/cluster';

const run = promisify(execFile);
let cluster: Cluster;
let one: Node;
let two: Node;
let token: string;

// Over TCP, one try with time to spare: a UDP retry of a slow answer would be counted twice.
const dig = (node: Node, name: string) =>
  run('dig', ['@127.0.0.1', '-p', String(node.dns), '+norec', '+tcp', '+time=5', '+tries=1', name, 'SOA']).then(
    (r) => /status: ([A-Z]+)/.exec(r.stdout)?.[1],
    () => 'timeout',
  );
const queries = async (node: Node) => ((await (await api(node, token, 'GET', '/domains/nodes.test/stats')).json()) as { totals: { queries: number; nxdomain: number } }).totals;

async function until(check: () => Promise<boolean>, limitMs = 10_000): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < limitMs; await new Promise((r) => setTimeout(r, 100))) if (await check()) return true;
  return false;
}

beforeAll(async () => {
  cluster = await startCluster(testDatabaseUrl('the many-nodes statistics test'), 2, { STATS_FLUSH_MS: '200' });
  [one, two] = cluster.nodes as [Node, Node];
  token = await cluster.token();
  expect((await api(one, token, 'POST', '/domains', { name: 'nodes.test' })).status).toBe(201);
  expect(await until(async () => (await dig(one, 'nodes.test')) === 'NOERROR' && (await dig(two, 'nodes.test')) === 'NOERROR')).toBe(true);
}, 60_000);
afterAll(() => cluster?.stop());

describe('query statistics on two nodes', () => {
  it('each node counts its own answers; both APIs answer the sum', async () => {
    // A settled baseline (the readiness probes above were counted too).
    let base = await queries(one);
    await until(async () => {
      await new Promise((r) => setTimeout(r, 500));
      const now = await queries(one);
      const same = now.queries === base.queries;
      base = now;
      return same;
    });
    const answers = await Promise.all([...Array.from({ length: 4 }, () => dig(one, 'gone.nodes.test')), ...Array.from({ length: 3 }, () => dig(two, 'gone.nodes.test'))]);
    expect(answers).toEqual(Array(7).fill('NXDOMAIN'));
    await until(async () => (await queries(two)).queries - base.queries >= 7, 15_000);
    expect((await queries(two)).queries - base.queries).toBe(7);
    for (const node of [one, two]) expect((await queries(node)).nxdomain - base.nxdomain).toBe(7);
    const top = (await (await api(two, token, 'GET', '/domains/nodes.test/stats/top?kind=nxdomain')).json()) as { names: unknown[] };
    expect(top.names).toEqual([{ name: 'gone.nodes.test', count: 7 }]);
  });
});
