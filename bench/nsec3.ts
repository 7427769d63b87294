/**
 * NSEC3 denial beside compact denial: signed NXDOMAIN answers for names never asked before (a
 * random-subdomain flood, the case where online signing costs most), through the DNS thread's
 * query handler in this process, on one signed zone switched between the two modes. Each name
 * needs one fresh signature either way (compact: its NSEC; NSEC3: the cover of its next closer
 * name, the closest encloser's and the wildcard's being cached), so the difference is the
 * hashing, the extra records and the octets. Alternating rounds, each mode's best kept.
 */
import packet from 'dns-packet';
import { createHandler } from '../server/dns/wire/handler';
import { exampleIndex } from '../server/testing/zone-fixture';
import { testKey } from '../server/testing/test-keys';
import { ratio, type Row } from './table';

const NAMES = 5_000;
const ROUNDS = 4;

interface Figure {
  perSecond: number;
  microseconds: number;
  octets: number;
}

const query = (name: string) =>
  packet.encode({
    id: 1,
    type: 'query',
    questions: [{ name, type: 'A', class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
  });

const fmt = (f: Figure) => `${Math.round(f.perSecond).toLocaleString('en-US')} answers/s, ${f.microseconds.toFixed(1)} µs, ${Math.round(f.octets)} octets`;

export async function benchNsec3(): Promise<Row[]> {
  const index = exampleIndex();
  const zone = index.get('example.com')!;
  zone.setKeys([testKey('example.com').key]);
  const handler = createHandler(index, { transferAllowed: () => false });
  let batch = 0;
  /** One round: NAMES new nonexistent names, each answered once. */
  const round = (mode: 'compact' | 'nsec3'): Figure => {
    zone.setDenial(mode);
    const queries = Array.from({ length: NAMES }, (_, i) => query(`r${batch}-${i}.example.com`));
    batch++;
    let octets = 0;
    const start = process.hrtime.bigint();
    for (const q of queries) octets += handler.udp(q, '127.0.0.1')!.length;
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { perSecond: NAMES / seconds, microseconds: (seconds * 1e6) / NAMES, octets: octets / NAMES };
  };
  round('compact');
  round('nsec3');
  const best: Record<'compact' | 'nsec3', Figure | null> = { compact: null, nsec3: null };
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of ['compact', 'nsec3'] as const) {
      const f = round(mode);
      if (!best[mode] || f.perSecond > best[mode].perSecond) best[mode] = f;
    }
  }
  const { compact, nsec3 } = best as Record<'compact' | 'nsec3', Figure>;
  return [
    {
      name: 'DNSSEC: NXDOMAIN with NSEC3 white lies, new names (in process)',
      value: fmt(nsec3),
      reference: `compact denial: ${fmt(compact)}`,
      ratio: ratio(nsec3.perSecond, compact.perSecond),
    },
  ];
}
