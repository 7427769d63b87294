/**
 * What online signing costs per answer, by algorithm: NXDOMAIN answers for names never asked before
 * (each needs one fresh signature: the worst case, a random-subdomain flood) from a zone signed with a
 * P-256, a P-384 and an Ed25519 key, beside the same answers unsigned (no DO bit), through the DNS
 * thread's query handler in this process. Alternating rounds, each one's best kept.
 */
import packet from 'dns-packet';
import { createHandler } from '../server/dns/wire/handler';
import { signingKey } from '../server/dns/dnssec/keys';
import { newKey } from '../server/services/dnssec/key-material';
import { exampleIndex } from '../server/testing/zone-fixture';
import { ratio, type Row } from './table';

const NAMES = 3_000;
const ROUNDS = 3;
const MODES = { unsigned: 0, 'ECDSA P-256 (13)': 13, 'ECDSA P-384 (14)': 14, 'Ed25519 (15)': 15 } as const;
type Mode = keyof typeof MODES;

const query = (name: string, dnssec: boolean) =>
  packet.encode({
    id: 1,
    type: 'query',
    questions: [{ name, type: 'A', class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssec ? packet.DNSSEC_OK : 0, options: [] } as unknown as packet.Answer],
  });

export async function benchSigning(): Promise<Row[]> {
  const index = exampleIndex();
  const zone = index.get('example.com')!;
  const keys = Object.fromEntries(
    Object.entries(MODES)
      .filter(([, alg]) => alg !== 0)
      .map(([mode, alg], i) => [mode, signingKey({ id: i + 1, ...newKey(1, 'example.com', new Date().toISOString(), alg, 'csk') })]),
  );
  const handler = createHandler(index, { transferAllowed: () => false });
  let batch = 0;
  const round = (mode: Mode): number => {
    zone.setKeys(mode === 'unsigned' ? [] : [keys[mode]!]);
    const queries = Array.from({ length: NAMES }, (_, i) => query(`s${batch}-${i}.example.com`, mode !== 'unsigned'));
    batch++;
    const start = process.hrtime.bigint();
    for (const q of queries) handler.udp(q, '127.0.0.1');
    return NAMES / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  const best = new Map<Mode, number>();
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const mode of Object.keys(MODES) as Mode[]) {
      const perSecond = round(mode);
      if (r > 0) best.set(mode, Math.max(best.get(mode) ?? 0, perSecond));
    }
  }
  const unsigned = best.get('unsigned')!;
  const us = (perSecond: number) => `${Math.round(perSecond).toLocaleString('en-US')} answers/s (${(1e6 / perSecond).toFixed(1)} µs each)`;
  return (Object.keys(MODES) as Mode[])
    .filter((m) => m !== 'unsigned')
    .map((m) => ({
      name: `DNSSEC: signed NXDOMAIN for new names, ${m} (in process)`,
      value: us(best.get(m)!),
      reference: `unsigned: ${us(unsigned)}`,
      ratio: ratio(best.get(m)!, unsigned),
    }));
}
