/**
 * A secondary zone on two nodes over one PostgreSQL: made through one node, transferred once (one
 * node holds the zone's lease for each check), answered by both; a change on the primary, NOTIFYed
 * to one node, reaches both by one IXFR. Needs TEST_DATABASE_URL (`npm test` sets it).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startCluster, testDatabaseUrl, type Cluster, type Node } from '../../testing/cluster';
import { KnotPrimary, primaryZoneFile } from '../../testing/knot-primary';
import { eventually } from '../../testing/test-server';

const run = promisify(execFile);
let cluster: Cluster;
let knot: KnotPrimary;

const ask = async (node: Node, name: string) => {
  try {
    return (await run('dig', ['@127.0.0.1', '-p', String(node.dns), '+short', '+time=1', '+tries=1', name, 'A'])).stdout.trim();
  } catch {
    return '';
  }
};
const count = (text: string, re: RegExp) => text.match(new RegExp(re, 'g'))?.length ?? 0;

beforeAll(async () => {
  cluster = await startCluster(testDatabaseUrl('the secondary-zone tests on many nodes'), 2);
  knot = await KnotPrimary.start([{ name: 'shared.test', file: primaryZoneFile('shared.test', 1) }], cluster.nodes[0]!.dns);
});

afterAll(async () => {
  await knot?.stop(true);
  await cluster?.stop();
});

describe('a secondary zone on two nodes', () => {
  it('is transferred once and answered by both; a NOTIFY to one brings the change to both by one IXFR', async () => {
    const [one, two] = cluster.nodes as [Node, Node];
    const res = await api(one, await cluster.token(), 'POST', '/domains', { name: 'shared.test', kind: 'secondary', primaries: [knot.address] });
    expect(res.status, await res.clone().text()).toBe(201);
    for (const node of [one, two]) expect(await eventually(async () => (await ask(node, 'www.shared.test')) === '192.0.2.10', 100, 100), knot.output).toBe(true);
    expect(count(knot.output, /AXFR, outgoing, remote 127\.0\.0\.1@\d+, finished/)).toBe(1);
    await knot.set('shared.test', 'new', '300', 'A', '192.0.2.99');
    for (const node of [one, two]) expect(await eventually(async () => (await ask(node, 'new.shared.test')) === '192.0.2.99', 100, 100), knot.output).toBe(true);
    expect(count(knot.output, /IXFR, outgoing, remote 127\.0\.0\.1@\d+, finished/)).toBe(1);
    const history = (await (await api(two, await cluster.token(), 'GET', '/domains/shared.test/changes')).json()) as { source: string; serial_after: number }[];
    expect(history.filter((c) => c.source === 'transfer').map((c) => c.serial_after)).toEqual([2, 1]);
  });
});
