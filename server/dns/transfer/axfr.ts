/**
 * Full zone transfer (RFC 5936): the SOA, every RRset of the zone (glue and data below
 * cuts included, §3.1), and the SOA again, packed into as many TCP messages as needed.
 * The question is in the first message only (§2.2.1); every message has AA set.
 * A signed zone goes out signed, with its NSEC chain (dnssec/signed-zone.ts).
 */
import type { Query } from '../wire/query';
import { HEADER_LENGTH } from '../wire/query';
import { signedZoneSets } from '../dnssec/signed-zone';
import { T, type RRset } from '../index/rrset';
import { MAX_MESSAGE, MessageWriter } from '../wire/writer';
import type { Zone } from '../index/zone';

const QR_AA = 0x8400;

/** The RRsets of a zone zonedeck does not sign but the SOA: the apex NS set first, then the rest (a signed secondary's DNSSEC records as transferred). */
function* plainSets(zone: Zone): Generator<RRset> {
  const apex = zone.nodes.get(zone.name)!;
  const ns = apex.get(T.NS);
  if (ns) yield ns;
  for (const node of zone.nodes.values()) {
    for (const set of node.values()) {
      if (set.type === T.SOA || (node === apex && set.type === T.NS)) continue;
      yield set;
    }
  }
  // A signed secondary's NSEC3 chain, kept apart from its names (index/zone.ts), goes out as stored.
  for (const node of zone.nsec3.values()) yield* node.values();
}

/** One record of a transfer: its RRset's owner, type and TTL, and its data. */
export interface TransferRecord {
  set: Pick<RRset, 'name' | 'type' | 'ttl'>;
  data: unknown;
}

/** The records of a transfer in order: SOA first and last. */
function* records(zone: Zone): Generator<TransferRecord> {
  const soa = zone.soa;
  yield { set: soa, data: soa.data[0] };
  for (const set of zone.signer ? signedZoneSets(zone, zone.signer) : plainSets(zone)) {
    for (const data of set.data) yield { set, data };
  }
  yield { set: soa, data: soa.data[0] };
}

/** `capacity`: the size of each message (less than 65535 when a TSIG RR is to follow). */
export function axfrMessages(raw: Uint8Array, q: Query, zone: Zone, capacity = MAX_MESSAGE): Buffer[] {
  return transferMessages(raw, q, records(zone), capacity);
}

/**
 * Packs the records of a zone transfer (AXFR, or IXFR, RFC 1995 §4) into as many TCP messages
 * as they need: the question in the first one only (RFC 5936 §2.2.1), AA on every one.
 * `capacity` leaves room for a TSIG RR after each message when the transfer is signed.
 */
export function transferMessages(raw: Uint8Array, q: Query, items: Iterable<TransferRecord>, capacity = MAX_MESSAGE): Buffer[] {
  const messages: Buffer[] = [];
  const start = () => {
    const w = new MessageWriter(capacity);
    w.header(q.id, QR_AA | (((raw[2]! << 8) | raw[3]!) & 0x0100));
    if (messages.length === 0) w.rawQuestion(raw, HEADER_LENGTH, q.questionEnd, q.labels);
    return w;
  };
  let w = start();
  let count = 0;
  const flush = () => {
    w.counts(messages.length === 0 ? 1 : 0, count, 0, 0);
    messages.push(w.finish());
    count = 0;
  };
  for (const { set, data } of items) {
    const mark = w.mark();
    try {
      w.rr(set.name, set.type, set.ttl, data);
    } catch (e) {
      if (!(e instanceof RangeError) || count === 0) throw e;
      w.rollback(mark);
      flush();
      w = start();
      w.rr(set.name, set.type, set.ttl, data);
    }
    count++;
  }
  flush();
  return messages;
}
