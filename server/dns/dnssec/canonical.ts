/**
 * DNSSEC's canonical forms (RFC 4034 §6): names in wire form without compression and in
 * lower case, the canonical order of names (§6.1) and of the records in an RRset (§6.3),
 * and the canonical RR form that signatures cover (§6.2). Names are the server's strings:
 * lower case, absolute, no trailing dot, odd octets as \DDD.
 */
import { CLASS_IN, type RRset } from '../index/rrset';
import { MessageWriter, labelBytes, newWorkBuffer } from '../wire/writer';

/** The labels of a name, leftmost first ('' is the root: none). */
export const labelsOf = (name: string): string[] => (name === '' ? [] : name.split('.'));

/** Wire form of a name: length-prefixed labels and the root, never compressed. */
export function nameWire(name: string): Buffer {
  const parts: Buffer[] = [];
  for (const label of labelsOf(name)) {
    const bytes = labelBytes(label);
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** Octets of a name in wire form, without building it. */
export function wireLength(name: string): number {
  let n = 1;
  for (const label of labelsOf(name)) n += labelBytes(label).length + 1;
  return n;
}

/** The RRSIG Labels field: labels of the owner, not counting the root or a leading "*" (RFC 4034 §3.1.3). */
export function labelCount(name: string): number {
  const labels = labelsOf(name);
  return labels[0] === '*' ? labels.length - 1 : labels.length;
}

/** A label back in presentation form: LDH octets as they are, the rest as \DDD. */
export function presentLabel(bytes: Uint8Array): string {
  let out = '';
  for (const c of bytes) {
    const ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2a;
    out += ok ? String.fromCharCode(c) : `\\${String(c).padStart(3, '0')}`;
  }
  return out;
}

/** A name as a key that sorts in canonical order: labels right to left, as octets. */
export function sortKey(name: string): Buffer[] {
  return labelsOf(name)
    .reverse()
    .map((l) => labelBytes(l));
}

/** Canonical DNS name order (RFC 4034 §6.1) on precomputed sort keys. */
export function compareKeys(a: Buffer[], b: Buffer[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = Buffer.compare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

export const compareNames = (a: string, b: string): number => compareKeys(sortKey(a), sortKey(b));

/** A writer over its own buffer: signing happens while the shared message buffer may be in use. */
const canonicalBuffer = newWorkBuffer();

/** The canonical rdata of each record of an RRset, sorted and without duplicates (RFC 4034 §6.3). */
export function canonicalRdata(set: RRset): Buffer[] {
  const out: Buffer[] = [];
  for (const data of set.data) {
    const w = new MessageWriter(undefined, { buffer: canonicalBuffer, compress: false });
    // Two octets before the rdata: dns-packet's codecs write the rdlength there.
    w.offset = 2;
    w.rdata(set.type, data);
    out.push(Buffer.from(canonicalBuffer.subarray(2, w.offset)));
  }
  out.sort(Buffer.compare);
  return out.filter((r, i) => i === 0 || !r.equals(out[i - 1]!));
}

/**
 * The RRset in the form a signature covers (RFC 4034 §3.1.8.1): each record as
 * owner | type | class | original TTL | rdlength | rdata, in canonical order. `owner` is the
 * name signed for: for a wildcard RRset, "*" and the wildcard's parent (§3.1.8.1 rule 4).
 */
export function canonicalRRset(set: RRset, owner: string, ttl: number): Buffer {
  const name = nameWire(owner);
  const parts: Buffer[] = [];
  for (const rdata of canonicalRdata(set)) {
    const head = Buffer.alloc(10);
    head.writeUInt16BE(set.type, 0);
    head.writeUInt16BE(CLASS_IN, 2);
    head.writeUInt32BE(ttl >>> 0, 4);
    head.writeUInt16BE(rdata.length, 8);
    parts.push(name, head, rdata);
  }
  return Buffer.concat(parts);
}
