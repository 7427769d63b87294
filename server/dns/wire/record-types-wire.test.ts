/**
 * Every type of the registry on the wire, the way clients see it: the zone holding every type
 * is served by zonedeck's own handler (resolver, writer) on UDP and TCP, and `dig` and `kdig`
 * print each answer. Their text, read back with our presentation parser, must be the stored
 * canonical content; where their printing is literally ours but for a known difference, the
 * difference is named below.
 */
import { execFile } from 'node:child_process';
import type dgram from 'node:dgram';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES, recordType } from '../../core/record-types';
import { EVERY_TYPE_SOA, EVERY_TYPE_ZONE, everyTypeRecords } from '../../testing/every-type-zone';
import { labelBytes, MessageWriter } from './writer';
import { createHandler } from './handler';
import { listenTcp, type TcpListener } from './tcp';
import { listenUdp } from './udp';
import { Zone } from '../index/zone';
import { domainRow, IDENTITY, row } from '../../testing/zone-fixture';
import { ZoneIndex } from '../index/zone-index';

const run = promisify(execFile);
const records = everyTypeRecords();
/** Each RRset once; NS below the apex is a delegation, answered as a referral (+short prints none). */
const rrsets = [...new Set(records.filter((r) => r.record_type !== 'NS' || r.name === '@').map((r) => `${r.name} ${r.record_type}`))].map((k) => k.split(' ') as [string, string]);
const fqdn = (name: string) => (name === '@' ? `${EVERY_TYPE_ZONE}.` : `${name}.${EVERY_TYPE_ZONE}.`);
const contents = (name: string, type: string) =>
  records
    .filter((r) => r.name === name && r.record_type === type)
    .map((r) => r.content)
    .sort();

describe('the writer puts on the wire what the registry encodes', () => {
  it('for every record, compression off (the canonical form DNSSEC signs, RFC 4034 §6.2)', () => {
    for (const r of records) {
      const t = recordType(r.record_type);
      const w = new MessageWriter(undefined, { buffer: Buffer.alloc(70_000), compress: false });
      w.offset = 2; // dns-packet's codecs write the rdlength in front
      w.rdata(t.code, t.wireData(r.content));
      expect(Buffer.from(w.buf.subarray(2, w.offset)).toString('hex'), `${r.name} ${r.record_type}`).toBe(Buffer.from(t.toWire(r.content)).toString('hex'));
    }
    expect(labelBytes('a').length).toBe(1);
  });
});

let udp: dgram.Socket;
let tcp: TcpListener;
let port: number;

beforeAll(async () => {
  const zone = new Zone(
    {
      ...domainRow(EVERY_TYPE_ZONE),
      ...EVERY_TYPE_SOA,
      serial_number: EVERY_TYPE_SOA.serial,
      refresh_interval: EVERY_TYPE_SOA.refresh,
      retry_interval: EVERY_TYPE_SOA.retry,
      expire_interval: EVERY_TYPE_SOA.expire,
      minimum_ttl: EVERY_TYPE_SOA.minimum,
    },
    records.map((r) => row(1, r.name, r.record_type, r.content, r.ttl)),
    IDENTITY,
  );
  const index = new ZoneIndex();
  index.put(zone);
  const handler = createHandler(index, { transferAllowed: () => false });
  for (let attempt = 0; ; attempt++) {
    udp = await listenUdp('127.0.0.1', 0, handler.udp, () => {});
    port = udp.address().port;
    try {
      tcp = await listenTcp('127.0.0.1', port, handler.tcp);
      break;
    } catch (e) {
      udp.close();
      if (attempt > 10) throw e;
    }
  }
});

afterAll(async () => {
  udp?.close();
  await tcp?.close();
});

async function ask(tool: 'dig' | 'kdig', name: string, type: string): Promise<string[]> {
  const retries = tool === 'dig' ? '+tries=2' : '+retry=1';
  const { stdout } = await run(tool, ['@127.0.0.1', '-p', String(port), '+short', '+time=2', retries, fqdn(name), type]);
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Reads a line as dig or kdig prints it, with our master-file parser. */
const readBack = (type: string, line: string) => recordType(type).fromText(line, EVERY_TYPE_ZONE);

/** Fields before the hex or base64 that dig splits with a space every 56 characters. */
const BLOB_AFTER: Record<string, number> = { DS: 3, TLSA: 3, SMIMEA: 3, SSHFP: 2, CERT: 3, OPENPGPKEY: 0 };
const unsplit = (type: string, line: string) => {
  const n = BLOB_AFTER[type];
  if (n === undefined) return line;
  const parts = line.split(' ');
  return [...parts.slice(0, n), parts.slice(n).join('')].join(' ');
};

/**
 * kdig 3.2 prints LOC in a shorter form ("52 22 23 N  4 53 32 E  -2m  1m 10000m 10m"), CERT with
 * numbers only, SVCB alpn without quotes, and a trailing space after CAA and URI.
 */
const KDIG_DIFFERS = new Set(['LOC', 'CERT', 'SVCB', 'HTTPS']);

describe.each(['dig', 'kdig'] as const)('%s prints what zonedeck serves', (tool) => {
  it.each(rrsets)(`%s %s`, async (name, type) => {
    const lines = await ask(tool, name, type);
    const expected = contents(name, type);
    expect(lines.map((l) => readBack(type, l)).sort()).toEqual(expected);
    // dig's and kdig's text is the master-file form of the canonical content, but for the differences named above.
    const zoneForm = expected.map((c) => recordType(type).zoneText(c)).sort();
    if (tool === 'dig') expect(lines.map((l) => unsplit(type, l)).sort()).toEqual(zoneForm);
    else if (!KDIG_DIFFERS.has(type)) expect(lines.sort()).toEqual(zoneForm);
  });
});

it('covers every type of the registry', () => {
  expect(new Set(rrsets.map(([, t]) => t))).toEqual(new Set(RECORD_TYPES.map((t) => t.type)));
});
