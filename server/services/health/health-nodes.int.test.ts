/**
 * Two zonedeck nodes on one PostgreSQL database check the same pool, each from its own source
 * address. When one node can no longer reach a member (its packets refused by that member alone),
 * the member stays in both nodes' answers: one node's broken network is outvoted. When neither
 * reaches it, it leaves both nodes' answers. Needs TEST_DATABASE_URL (`npm test` sets it).
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startCluster, testDatabaseUrl, type Cluster, type Node } from '../../testing/cluster';
import { freePort } from '../../testing/test-server';
import { waitUntil } from '../../testing/wait-until';

const run = promisify(execFile);
const SOURCES = ['127.0.0.10', '127.0.0.11'];
let cluster: Cluster;
let token: string;
let port: number;
/** Source addresses the first member refuses: its network as those nodes see it. */
const refused = new Set<string>();
const backends: http.Server[] = [];

async function answer(node: Node): Promise<string[]> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(node.dns), '+short', '+time=1', '+tries=1', 'www.pool.test', 'A']);
    return stdout.trim().split('\n').filter(Boolean).sort();
  } catch {
    return [];
  }
}
const pool = async () => (await (await api(cluster.nodes[0]!, token, 'GET', '/domains/pool.test/pools/www')).json()) as any;

beforeAll(async () => {
  port = await freePort();
  for (const address of ['127.0.0.1', '127.0.0.2']) {
    const s = http.createServer((req, res) => res.writeHead(200).end('ok'));
    // The first member drops connections from the sources it refuses before a byte is read.
    if (address === '127.0.0.1') s.on('connection', (socket) => refused.has(socket.remoteAddress ?? '') && socket.destroy());
    backends.push(s);
    await new Promise<void>((resolve) => s.listen(port, address, resolve));
  }
  cluster = await startCluster(
    testDatabaseUrl('The health checks across nodes'),
    2,
    { HEALTH_ALLOW_PRIVATE: 'true', HEALTH_MIN_INTERVAL_S: '1' },
    { envs: SOURCES.map((a) => ({ HEALTH_SOURCE_ADDRESS: a })) },
  );
  token = await cluster.token();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  for (const s of backends) s.close();
});

describe('health checks on two nodes', () => {
  it('keep a member that one node cannot reach, and drop it when neither can', async () => {
    const [one, two] = cluster.nodes as [Node, Node];
    expect((await api(one, token, 'POST', '/domains', { name: 'pool.test' })).status).toBe(201);
    const made = await api(one, token, 'POST', '/domains/pool.test/pools', {
      name: 'www',
      type: 'A',
      ttl: 5,
      policy: 'all-healthy',
      members: [{ address: '127.0.0.1' }, { address: '127.0.0.2' }],
      check: { kind: 'http', port, interval_s: 1, timeout_ms: 500, failures: 2, successes: 2 },
    });
    expect(made.status).toBe(201);
    await waitUntil(
      'both nodes judge both members up',
      async () => {
        const p = await pool();
        return p.members.every((m: { state: string; nodes: { state: string }[] }) => m.state === 'up' && m.nodes.length === 2 && m.nodes.every((n) => n.state === 'up'));
      },
      { limitMs: 30_000 },
    );

    // The second node's network to the first member breaks.
    refused.add(SOURCES[1]!);
    await waitUntil('the second node sees the first member down', async () => (await pool()).members[0].nodes.some((n: { state: string }) => n.state === 'down'), { limitMs: 20_000 });
    // Several intervals later it is still answered, by both nodes.
    await new Promise((r) => setTimeout(r, 4_000));
    const outvoted = await pool();
    expect(outvoted.members[0]).toMatchObject({ address: '127.0.0.1', state: 'up' });
    expect(outvoted.members[0].nodes.map((n: { state: string }) => n.state).sort()).toEqual(['down', 'up']);
    expect(await answer(one)).toEqual(['127.0.0.1', '127.0.0.2']);
    expect(await answer(two)).toEqual(['127.0.0.1', '127.0.0.2']);

    // Now neither reaches it: it leaves both nodes' answers.
    refused.add(SOURCES[0]!);
    await waitUntil('both nodes answer the second member alone', async () => (await answer(one)).join() === '127.0.0.2' && (await answer(two)).join() === '127.0.0.2', { limitMs: 30_000 });
    const p = await pool();
    expect(p.members[0].state).toBe('down');
    expect(p.transitions[0]).toMatchObject({ address: '127.0.0.1', from: 'up', to: 'down' });
  }, 150_000);
});
