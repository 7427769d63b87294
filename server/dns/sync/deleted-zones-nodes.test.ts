/**
 * A deleted zone restored on PostgreSQL with two zonedeck processes:
 * deleted through one node's API, both nodes stop answering; restored through the other's, both
 * answer again with the old records and a newer serial, and delv validates with the trust anchor
 * taken before the deletion. Needs TEST_DATABASE_URL (`npm test` sets it); without it the test
 * fails and says how to set it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startCluster, testDatabaseUrl, type Cluster, type Node } from '../../testing/cluster';
import { eventually } from '../../testing/test-server';

const run = promisify(execFile);
let cluster: Cluster;
let one: Node;
let two: Node;
let token: string;

beforeAll(async () => {
  cluster = await startCluster(testDatabaseUrl('the deleted-zone tests on many nodes'), 2);
  [one, two] = cluster.nodes as [Node, Node];
  token = await cluster.token();
});
afterAll(async () => {
  await cluster?.stop();
});

async function json<T = any>(res: Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function dig(node: Node, ...args: string[]): Promise<string> {
  try {
    return (await run('dig', ['@127.0.0.1', '-p', String(node.dns), '+time=1', '+tries=1', ...args])).stdout;
  } catch {
    return '';
  }
}
const short = async (node: Node, name: string, type = 'A') => (await dig(node, '+short', name, type)).trim();
const until = (fn: () => Promise<boolean>) => eventually(fn).then((ok) => expect(ok).toBe(true));

async function delv(node: Node, key: string, name: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-delv-'));
  const file = path.join(dir, 'anchor.conf');
  fs.writeFileSync(file, `trust-anchors {\n  "restore.test." static-key 257 3 13 "${key}";\n};\n`);
  try {
    const { stdout, stderr } = await run('delv', ['@127.0.0.1', '-p', String(node.dns), '-a', file, '+root=restore.test', name, 'A']);
    return `${stdout}\n${stderr}`;
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error('delv is not installed: apt-get install bind9-dnsutils');
    return `${err.stdout ?? ''}\n${err.stderr ?? ''}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('a deleted zone restored, on two nodes', () => {
  it('goes off the air on both when deleted on one, and comes back on both, validating, when restored on the other', async () => {
    await json(api(one, token, 'POST', '/domains', { name: 'restore.test', dnssec_enabled: true }), 201);
    await json(api(one, token, 'POST', '/domains/restore.test/records', { name: 'www', record_type: 'A', content: '192.0.2.77' }));
    const before = await json(api(one, token, 'GET', '/domains/restore.test'));
    const anchor = (before.dnskey_records[0] as string).split(' ').at(-1)!;
    for (const node of [one, two]) await until(async () => (await short(node, 'www.restore.test')) === '192.0.2.77');
    expect(await delv(two, anchor, 'www.restore.test')).toMatch(/; fully validated/);

    expect((await api(one, token, 'DELETE', '/domains/restore.test')).status).toBe(200);
    for (const node of [one, two]) await until(async () => /status: REFUSED/.test(await dig(node, 'www.restore.test', 'A')));

    const [d] = await json<Array<{ id: number; name: string }>>(api(two, token, 'GET', '/deleted-domains'));
    expect(d!.name).toBe('restore.test');
    const restored = await json(api(two, token, 'POST', `/deleted-domains/${d!.id}/restore`, {}));
    expect(restored.serial_number).toBeGreaterThan(before.serial_number);
    for (const node of [one, two]) {
      await until(async () => (await short(node, 'www.restore.test')) === '192.0.2.77');
      await until(async () => Number((await short(node, 'restore.test', 'SOA')).split(/\s+/)[2]) === restored.serial_number);
      expect(await delv(node, anchor, 'www.restore.test')).toMatch(/; fully validated/);
    }
  });
});
