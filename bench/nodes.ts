/**
 * Many nodes: cross-node propagation over 1,000 writes — from sending a
 * record write to node 1's API to the first answer with it from node 2's DNS — beside the same
 * on one node (the write to node 1, its own DNS asked), interleaved in the same run on the same
 * two processes and database. Each write's name is asked over UDP every millisecond from the
 * moment the write is sent. Needs PostgreSQL (TEST_DATABASE_URL or DATABASE_URL, a role that may
 * create a scratch database); without it the row says so.
 */
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { api, startCluster, type Node } from '../server/testing/cluster';
import { ratio, type Row } from './table';

const WRITES = Number(process.env.BENCH_NODE_WRITES ?? 1000);
const ZONE = 'nodes.bench.test';

/** Asks `name` TXT of a node every millisecond until it answers with data; resolves with the time it did. */
function firstAnswer(node: Node, name: string, socket: dgram.Socket, stop: { done: boolean }): Promise<number> {
  return new Promise((resolve, reject) => {
    let id = 0;
    let timer: NodeJS.Timeout | undefined;
    const onMessage = (msg: Buffer) => {
      let res: packet.Packet;
      try {
        res = packet.decode(msg);
      } catch {
        return;
      }
      if (res.id !== id || !res.answers?.length) return;
      const at = performance.now();
      finish();
      resolve(at);
    };
    const finish = () => {
      clearTimeout(timer);
      socket.off('message', onMessage);
    };
    const ask = () => {
      if (stop.done) {
        finish();
        reject(new Error(`${name} was never answered`));
        return;
      }
      id = (id + 1) & 0xffff;
      socket.send(packet.encode({ type: 'query', id, flags: 0, questions: [{ type: 'TXT', name }] }), node.dns, '127.0.0.1');
      timer = setTimeout(ask, 1);
    };
    socket.on('message', onMessage);
    ask();
  });
}

async function propagation(token: string, writer: Node, reader: Node, socket: dgram.Socket, i: number): Promise<number> {
  const name = `p${i}-${reader === writer ? 'own' : 'other'}`;
  const stop = { done: false };
  const start = performance.now();
  const answered = firstAnswer(reader, `${name}.${ZONE}`, socket, stop);
  const res = await api(writer, token, 'POST', `/domains/${ZONE}/records`, { name, record_type: 'TXT', content: `write ${i}` });
  if (res.status !== 200) throw new Error(`write ${i} answered ${res.status}: ${await res.text()}`);
  // The periodic serial check (10 s) would bring it anyway: past 5 s, call it lost.
  const guard = setTimeout(() => (stop.done = true), 5000);
  try {
    return (await answered) - start;
  } finally {
    clearTimeout(guard);
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (t: number) => `${t < 10 ? t.toFixed(1) : Math.round(t)} ms`;

export async function benchNodes(): Promise<Row[]> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const name = `cross-node propagation, ${WRITES} writes (API on node 1 → node 2's DNS), p50/p99`;
  if (!adminUrl) {
    return [{ name, value: 'not measured: needs PostgreSQL', reference: 'set TEST_DATABASE_URL=postgres://…', ratio: '—' }];
  }
  const cluster = await startCluster(adminUrl, 2, { LOG_LEVEL: 'warn' });
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  try {
    const [one, two] = cluster.nodes as [Node, Node];
    const token = await cluster.token();
    const created = await api(one, token, 'POST', '/domains', { name: ZONE });
    if (created.status !== 201) throw new Error(`creating ${ZONE} answered ${created.status}`);
    // Warm-up: JIT, connections, the zone on both nodes.
    for (let i = 0; i < 20; i++) {
      await propagation(token, one, two, socket, -1 - i * 2);
      await propagation(token, one, one, socket, -2 - i * 2);
    }
    const other: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      other.push(await propagation(token, one, two, socket, i));
      own.push(await propagation(token, one, one, socket, i));
    }
    other.sort((a, b) => a - b);
    own.sort((a, b) => a - b);
    return [
      {
        name,
        value: `p50 ${ms(pct(other, 50))}, p99 ${ms(pct(other, 99))}, max ${ms(other.at(-1)!)}`,
        reference: `one node (own DNS): p50 ${ms(pct(own, 50))}, p99 ${ms(pct(own, 99))}`,
        ratio: `p99 ×${(pct(other, 99) / pct(own, 99)).toFixed(1)}`,
      },
      {
        name: 'cross-node propagation within 1 s',
        value: `${other.filter((t) => t < 1000).length} of ${WRITES}`,
        reference: `${WRITES} of ${WRITES}`,
        ratio: ratio(other.filter((t) => t < 1000).length, WRITES),
      },
    ];
  } finally {
    socket.close();
    await cluster.stop();
  }
}
