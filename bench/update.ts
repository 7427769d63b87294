/**
 * Dynamic updates: TSIG-signed RFC 2136 UPDATEs per second, one record each, from
 * 32 concurrent clients over UDP, beside API record writes per second at 32 connections, in
 * the same run on the same server. Each update is one change set, durable before its answer.
 */
import dgram from 'node:dgram';
import autocannon from 'autocannon';
import packet from 'dns-packet';
import { signRequest } from '../server/dns/tsig/tsig';
import { cli, startServer, tempDataDir } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = 32;

/** One client: sends a signed update, waits for its answer, sends the next, until `until`. */
async function client(port: number, key: { name: string; algorithm: 'hmac-sha256'; secret: Buffer }, tag: number, until: number): Promise<{ ok: number; failed: number; ms: number[] }> {
  const sock = dgram.createSocket('udp4');
  const stats = { ok: 0, failed: 0, ms: [] as number[] };
  let n = 0;
  while (Date.now() < until) {
    const id = (tag * 2048 + n) & 0xffff;
    const msg = Buffer.from(
      packet.encode({
        id,
        type: 'query',
        opcode: 'UPDATE',
        flags: 5 << 11,
        questions: [{ name: 'bench.example', type: 'SOA', class: 'IN' }],
        authorities: [{ name: `u${tag}-${n++}.bench.example`, type: 'TXT', class: 'IN', ttl: 60, data: ['bench'] }],
      } as unknown as packet.Packet),
    );
    const started = performance.now();
    const rcode = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => (sock.off('message', on), resolve(-1)), 2000);
      const on = (m: Buffer) => {
        if (m.readUInt16BE(0) !== id) return;
        clearTimeout(timer);
        sock.off('message', on);
        resolve(m[3]! & 0x0f);
      };
      sock.on('message', on);
      sock.send(signRequest(msg, key).message, port, '127.0.0.1');
    });
    if (rcode === 0) {
      stats.ok++;
      stats.ms.push(performance.now() - started);
    } else stats.failed++;
  }
  sock.close();
  return stats;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(1) : '—');

export async function benchUpdates(): Promise<Row[]> {
  const dataDir = tempDataDir();
  // Capacity, not policy: RATE_LIMIT_UPDATE would hold one key to 20/s (bench/defences.ts measures it).
  const server = await startServer({ LOG_LEVEL: 'warn', DNS_PORT: '0', RATE_LIMIT_UPDATE: 'off' }, dataDir);
  try {
    cli(dataDir, 'users', 'add', 'bench');
    const token = cli(dataDir, 'tokens', 'create', 'bench').at(-1)!;
    const [, name, secret] = cli(dataDir, 'tsig', 'create', 'bench', 'bench-key').at(-1)!.split(':');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await fetch(`${server.url}/api/v1/domains`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench.example' }) });
    await new Promise((r) => setTimeout(r, 1500)); // the DNS thread takes the key up within a second

    let k = 0;
    const api = await autocannon({
      url: `${server.url}/api/v1/domains/bench.example/records`,
      method: 'POST',
      headers,
      connections: CLIENTS,
      duration: DURATION,
      requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `a${k++}`, record_type: 'TXT', content: 'bench', ttl: '60' }) }) }],
    });

    const key = { name: name!, algorithm: 'hmac-sha256' as const, secret: Buffer.from(secret!, 'base64') };
    const until = Date.now() + DURATION * 1000;
    const results = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(server.dnsPort!, key, i, until)));
    const ok = results.reduce((s, r) => s + r.ok, 0);
    const failed = results.reduce((s, r) => s + r.failed, 0);
    const ms = results.flatMap((r) => r.ms).sort((a, b) => a - b);
    const rps = ok / DURATION;
    return [
      {
        name: `signed UPDATE, 1 TXT each (${CLIENTS} UDP clients)`,
        value: `${Math.round(rps)} updates/s, p50 ${pct(ms, 0.5)} ms, p99 ${pct(ms, 0.99)} ms${failed ? `, ${failed} failed` : ''}`,
        reference: `${Math.round(api.requests.average)} API record writes/s (${CLIENTS} connections)`,
        ratio: ratio(rps, api.requests.average),
      },
    ];
  } finally {
    await server.stop();
  }
}
