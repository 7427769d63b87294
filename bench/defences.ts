/**
 * The DNS port's defences, each beside its reference in the
 * same run on this machine:
 * - DNS q/s with response rate limiting on (DNS_RATE_LIMIT high enough that nothing is limited,
 *   so every answer pays for its bookkeeping) and cookies answered, beside the same build with
 *   DNS_RATE_LIMIT off; dnsperf's mix on the 1k zone, alternating rounds, best of each (aim ≥ 95%);
 * - the bytes a spoofed-source flood of one large answer makes the server send to its victim,
 *   with DNS_RATE_LIMIT=20 beside without (aim ≤ 10%);
 * - API p99 (GET /domains) while one key floods signed UPDATEs (RATE_LIMIT_UPDATE at its default),
 *   beside the same p99 idle (aim ≤ 2×);
 * - how soon a TSIG key revoked by the CLI is refused (BADKEY), beside the second docs/security.md
 *   promises (the tests only wait for it to happen).
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import packet from 'dns-packet';
import { cli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { dnsperf, fillStore, queryFile, ZONE } from './dns';
import { fmtQps, ratio, type Row } from './table';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 4;

const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;

/** Sends `count` copies of `msg` at `perSecond` from one socket (the spoofed victim) and counts the bytes that come back. */
async function flood(port: number, msg: Buffer, count: number, perSecond: number): Promise<{ bytes: number; answers: number }> {
  const sock = dgram.createSocket('udp4');
  let bytes = 0;
  let answers = 0;
  sock.on('message', (m) => {
    bytes += m.length;
    answers++;
  });
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  const batch = Math.max(1, Math.round(perSecond / 100));
  for (let sent = 0; sent < count; sent += batch) {
    for (let i = 0; i < batch; i++) sock.send(msg, port, '127.0.0.1');
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 500));
  sock.close();
  return { bytes, answers };
}

async function api(server: ServerProcess, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function p99(server: ServerProcess, token: string): Promise<number> {
  const r = await autocannon({ url: `${server.url}/api/v1/domains`, headers: { authorization: `Bearer ${token}` }, connections: 4, duration: SECONDS });
  return r.latency.p99;
}

/**
 * One key's UPDATE flood in a process of its own (bench/update-flood.ts), so that the flood's
 * work does not delay autocannon's own measurements in this process. Answers how many it sent.
 */
async function updateFlood(port: number, key: string, seconds: number): Promise<number> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./update-flood.ts', import.meta.url)), String(port), key, String(seconds)]);
  return Number(stdout.trim());
}

/** From the exit of the CLI that revoked a TSIG key to the first BADKEY for it, dig asking in a loop; Infinity past 30 s. */
async function revocationDelay(server: ServerProcess, dir: string): Promise<number> {
  const y = cli(dir, 'tsig', 'create', 'bench', 'revoked-key').at(-1)!;
  const ask = async () => {
    const out = await run('dig', ['@127.0.0.1', '-p', String(server.dnsPort), '+time=1', '+tries=1', '-y', y, ZONE, 'SOA']).catch((e: { stdout?: string }) => e);
    return out.stdout ?? '';
  };
  for (let i = 0; i < 100 && !/status: NOERROR/.test(await ask()); i++) await new Promise((r) => setTimeout(r, 100));
  cli(dir, 'tsig', 'revoke', 'revoked-key');
  const start = performance.now();
  while (!/BADKEY/.test(await ask())) if (performance.now() - start > 30_000) return Infinity;
  return Math.round(performance.now() - start);
}

export async function benchDefences(): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = tempDataDir();
  const hosts = await fillStore(dir, 1000);
  const queries = queryFile(dir, hosts);
  // Both servers on CPU 0, measured one at a time; dnsperf on CPU 1.
  const on = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn', DNS_RATE_LIMIT: '1000000' }, dir, { cpu: 0 });
  const off = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn' }, dir, { cpu: 0 });
  try {
    await dnsperf(on.dnsPort!, queries, 2);
    await dnsperf(off.dnsPort!, queries, 2);
    let bestOn = 0;
    let bestOff = 0;
    for (let i = 0; i < ROUNDS; i++) {
      bestOff = Math.max(bestOff, (await dnsperf(off.dnsPort!, queries, Math.max(2, Math.round(SECONDS / 2)))).qps);
      bestOn = Math.max(bestOn, (await dnsperf(on.dnsPort!, queries, Math.max(2, Math.round(SECONDS / 2)))).qps);
    }
    rows.push({ name: 'Defences: DNS q/s with RRL (every answer counted) and cookies on', value: fmtQps(bestOn), reference: `DNS_RATE_LIMIT off: ${fmtQps(bestOff)}`, ratio: ratio(bestOn, bestOff) });
  } finally {
    await on.stop();
  }

  // A spoofed flood: 1,000 queries a second for 5 s of one ~1,100-octet TXT answer, from one address.
  // The record is written before the limited server starts: it reads the zone from the same file.
  const token = cli(dir, 'tokens', 'create', 'bench').at(-1)!;
  const txt = Array.from({ length: 5 }, (_, i) => `"${String(i).repeat(200)}"`);
  await api(off, token, 'PATCH', `/domains/${ZONE}/rrsets`, { rrsets: [{ name: 'big', record_type: 'TXT', changetype: 'REPLACE', records: txt }] });
  const limited = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn', DNS_RATE_LIMIT: '20' }, dir, { cpu: 0 });
  try {
    const msg = Buffer.from(
      packet.encode({
        id: 1,
        type: 'query',
        questions: [{ name: `big.${ZONE}`, type: 'TXT', class: 'IN' }],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as unknown as packet.Answer],
      }),
    );
    const without = await flood(off.dnsPort!, msg, 5000, 1000);
    const withRrl = await flood(limited.dnsPort!, msg, 5000, 1000);
    rows.push({
      name: 'Defences: bytes sent to a spoofed victim (5,000 × 1.1 kB answer, 1,000/s)',
      value: `${kb(withRrl.bytes)} (DNS_RATE_LIMIT=20, ${withRrl.answers} answers)`,
      reference: `${kb(without.bytes)} (off, ${without.answers} answers)`,
      ratio: ratio(withRrl.bytes, without.bytes),
    });

    // API p99 while one key floods signed UPDATEs (RATE_LIMIT_UPDATE default: 20/s, burst 100).
    const key = cli(dir, 'tsig', 'create', 'bench', 'flood-key').at(-1)!;
    await new Promise((r) => setTimeout(r, 1500));
    const idle = await p99(off, token);
    const floodRun = updateFlood(off.dnsPort!, key, SECONDS + 1);
    await new Promise((r) => setTimeout(r, 500));
    const during = await p99(off, token);
    const sent = await floodRun;
    rows.push({
      name: `Defences: API p99 (GET /domains) during a signed-UPDATE flood (${Math.round(sent / (SECONDS + 1)).toLocaleString('en-US')}/s)`,
      value: `${during} ms`,
      reference: `${idle} ms idle`,
      ratio: ratio(during, idle),
    });

    const revoked = await revocationDelay(off, dir);
    rows.push({ name: 'Defences: a TSIG key revoked by the CLI, refused (BADKEY) after', value: `${revoked} ms`, reference: '1,000 ms (docs/security.md)', ratio: ratio(revoked, 1000) });
  } finally {
    await limited.stop();
    await off.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
