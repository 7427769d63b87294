/**
 * Zone-file figures: the import of a 100k-record master file as one change
 * set (time, the server's peak memory) beside the same records written through 1,000-RRset
 * PATCHes, the export of that zone, and DNS answers during the import (the DNS thread must keep
 * answering) beside DNS answers when idle; and the parse of that file alone, in this process, beside
 * the whole import (the zone-file tests read big files but never time them).
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import packet from 'dns-packet';
import { parseZoneFile } from '../server/core/zone-file/parser';
import { cli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const COUNT = 100_000;
const ms = (t: number) => `${Math.round(t)} ms`;
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

/** The process's peak resident memory so far (VmHWM), in kB. */
function peakKb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

function zoneFile(): string {
  const lines = ['$TTL 3600'];
  for (let i = 0; i < COUNT; i++) {
    if (i % 4 === 3) lines.push(`txt${i} IN TXT "record ${i}"`);
    else lines.push(`host${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Sends one A query every `everyMs` while `during` runs; answers the latencies (ms) and how many got none. */
async function probe(port: number, during: Promise<unknown>, everyMs = 5): Promise<{ p50: number; p99: number; lost: number }> {
  const sock = dgram.createSocket('udp4');
  const sent = new Map<number, number>();
  const took: number[] = [];
  sock.on('message', (msg) => {
    const id = msg.readUInt16BE(0);
    const at = sent.get(id);
    if (at !== undefined) {
      took.push(performance.now() - at);
      sent.delete(id);
    }
  });
  let id = 0;
  let done = false;
  // Two more seconds after the write: the DNS thread then loads the new zone.
  void during.finally(() => setTimeout(() => (done = true), 2000));
  while (!done) {
    const q = packet.encode({ type: 'query', id: ++id & 0xffff, questions: [{ type: 'A', name: 'probe.example', class: 'IN' }] });
    sent.set(id & 0xffff, performance.now());
    sock.send(q, port, '127.0.0.1');
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await new Promise((r) => setTimeout(r, 500));
  sock.close();
  took.sort((a, b) => a - b);
  const at = (p: number) => Math.round((took[Math.min(took.length - 1, Math.floor(took.length * p))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), lost: sent.size };
}

export async function benchZoneFiles(): Promise<Row[]> {
  const rows: Row[] = [];
  const dataDir = tempDataDir();
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ LOG_LEVEL: 'warn', DNS_PORT: '0', RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_ADDRESS: 'off' }, dataDir);
    cli(dataDir, 'users', 'add', 'bench');
    const token = cli(dataDir, 'tokens', 'create', 'bench').at(-1)!;
    const auth = { authorization: `Bearer ${token}` };
    const api = (p: string, init: RequestInit = {}) => fetch(`${server!.url}/api/v1${p}`, { ...init, headers: { ...auth, 'content-type': 'application/json', ...(init.headers ?? {}) } });
    for (const z of ['import.example', 'patched.example', 'probe.example']) await api('/domains', { method: 'POST', body: JSON.stringify({ name: z }) });
    await api('/domains/probe.example/records', { method: 'POST', body: JSON.stringify({ name: '@', record_type: 'A', content: '192.0.2.1' }) });
    const pid = server.child.pid!;
    const text = zoneFile();

    const idle = await probe(server.dnsPort!, new Promise((r) => setTimeout(r, 2000)));
    const before = peakKb(pid);
    const t = performance.now();
    const importing = api('/domains/import.example/zone', { method: 'POST', body: text, headers: { 'content-type': 'text/dns' } });
    const during = await probe(server.dnsPort!, importing);
    const res = await importing;
    const importMs = performance.now() - t;
    if (res.status !== 200) throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const peak = peakKb(pid);

    // The same records through the bulk API, 1,000 RRsets a request.
    const records = text.split('\n').slice(1).filter(Boolean);
    const t2 = performance.now();
    for (let i = 0; i < records.length; i += 1000) {
      const rrsets = records.slice(i, i + 1000).map((l) => {
        const [name, , type, ...rest] = l.split(' ');
        return { name, record_type: type, changetype: 'REPLACE', records: [type === 'TXT' ? rest.join(' ').slice(1, -1) : rest.join(' ')] };
      });
      const r = await api('/domains/patched.example/rrsets', { method: 'PATCH', body: JSON.stringify({ rrsets }) });
      if (r.status !== 200) throw new Error(`PATCH answered ${r.status}`);
    }
    const patchMs = performance.now() - t2;
    rows.push({
      name: `import of a ${COUNT / 1000}k-record master file, one change set`,
      value: `${ms(importMs)}, peak RSS ${mb(peak)} (${mb(before)} before)`,
      reference: `${ms(patchMs)} as 100 PATCHes of 1,000 RRsets`,
      ratio: ratio(importMs, patchMs),
    });
    const t1 = performance.now();
    const parsed = parseZoneFile(text, 'import.example');
    const parseMs = performance.now() - t1;
    if (parsed.errors.length || parsed.records.length !== COUNT) throw new Error(`the parse found ${parsed.records.length} records and ${parsed.errors.length} errors`);
    rows.push({ name: `parse of that ${COUNT / 1000}k-record file alone (in process, one core)`, value: ms(parseMs), reference: `the whole import: ${ms(importMs)}`, ratio: ratio(parseMs, importMs) });
    rows.push({
      name: 'DNS answers during that import and 2 s after (UDP, every 5 ms)',
      value: `p50 ${during.p50} ms, p99 ${during.p99} ms, ${during.lost} lost`,
      reference: `idle: p50 ${idle.p50} ms, p99 ${idle.p99} ms`,
      ratio: '—',
    });

    const t3 = performance.now();
    const exported = await (await fetch(`${server.url}/api/v1/domains/import.example/zone`, { headers: auth })).text();
    const exportMs = performance.now() - t3;
    const t4 = performance.now();
    await (await fetch(`${server.url}/api/v1/domains/import.example/records?per_page=500`, { headers: auth })).text();
    const pageMs = performance.now() - t4;
    rows.push({
      name: `export of the ${COUNT / 1000}k-record zone`,
      value: `${ms(exportMs)}, ${mb(exported.length / 1024)}`,
      reference: `${Math.round(pageMs * 10) / 10} ms for one page of 500 records`,
      ratio: '—',
    });
  } finally {
    await server?.stop();
  }
  return rows;
}
