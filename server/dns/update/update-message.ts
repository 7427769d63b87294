/**
 * Reads an RFC 2136 UPDATE message: the zone section (§2.3), the prerequisites (§2.4) and the
 * update section (§2.5), checked as §3.1.1, §3.2 and §3.4.1 say (FORMERR, NOTZONE) before the
 * store is asked anything. Names come out relative to the zone; rdata in the registry's
 * canonical presentation form. Any octet string gives an update or an RCODE, never an exception.
 */
import packet from 'dns-packet';
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { RECORD_TYPE_BY_CODE, RECORD_TYPE_BY_NAME } from '../../core/record-types';
import { UPDATE_RCODE, type UpdateRR } from '../../services/changes/dynamic-updates';
import { CLASS_IN } from '../index/rrset';

export const OPCODE_UPDATE = 5;
const CLASS_NONE = 254;
const CLASS_ANY = 255;
const TYPE_SOA = 6;
const TYPE_ANY = 255;
/** Meta and query-only types (RFC 6895 §3.1): never data to add or delete. */
const isMeta = (t: number) => (t >= 128 && t <= 255) || t === 41 || t === 250 || t === 249;

export type ParsedUpdate =
  | { kind: 'update'; zone: string; prerequisites: UpdateRR[]; updates: UpdateRR[]; zoneEnd: number }
  /** Answer with this RCODE, echoing the zone section when `zoneEnd` is set. */
  | { kind: 'error'; rcode: number; zoneEnd?: number };

class Fail extends Error {
  constructor(readonly rcode: number) {
    super(`RCODE ${rcode}`);
  }
}

const typeName = (code: number) => (code === TYPE_ANY ? 'ANY' : code === TYPE_SOA ? 'SOA' : (RECORD_TYPE_BY_CODE.get(code)?.type ?? `TYPE${code}`));

/** dns-packet's name codec (compression pointers followed), which its type declarations leave out. */
const names = packet as unknown as { name: { decode: ((b: Buffer, o: number) => string) & { bytes: number } } };

/**
 * The canonical content of one RR's rdata (the registry reads every type it holds, names
 * compressed against the whole message), or null for a type the registry does not hold.
 * `at` points at RDLENGTH. Rdata the registry cannot read is a format error (§3.4.1.3).
 */
function content(msg: Buffer, type: string, at: number, rdlength: number): string | null {
  const def = RECORD_TYPE_BY_NAME.get(type);
  if (!def) return null;
  try {
    return def.fromWire(msg.subarray(at + 2, at + 2 + rdlength), { message: msg, offset: at + 2 });
  } catch {
    throw new Fail(UPDATE_RCODE.FORMERR);
  }
}

/** A name of the message (compression allowed), lower case, no trailing dot, and where it ends. */
function readName(msg: Buffer, at: number): { name: string; end: number } {
  try {
    const name = names.name.decode(msg, at).toLowerCase();
    return { name: name === '.' ? '' : name, end: at + names.name.decode.bytes };
  } catch {
    throw new Fail(UPDATE_RCODE.FORMERR);
  }
}

interface RawRR {
  name: string;
  type: number;
  cls: number;
  ttl: number;
  rdlength: number;
  /** Where RDLENGTH is. */
  at: number;
}

function readRR(msg: Buffer, at: number): { rr: RawRR; end: number } {
  const { name, end } = readName(msg, at);
  if (end + 10 > msg.length) throw new Fail(UPDATE_RCODE.FORMERR);
  const rdlength = msg.readUInt16BE(end + 8);
  const rr = { name, type: msg.readUInt16BE(end), cls: msg.readUInt16BE(end + 2), ttl: msg.readUInt32BE(end + 4), rdlength, at: end + 8 };
  if (end + 10 + rdlength > msg.length) throw new Fail(UPDATE_RCODE.FORMERR);
  return { rr, end: end + 10 + rdlength };
}

/** The name relative to the zone; NOTZONE outside it (§3.2, §3.4.1.3); REFUSED for a name we could never hold. */
function relative(name: string, zone: string): string {
  if (name === zone) return APEX;
  if (!name.endsWith(`.${zone}`)) throw new Fail(UPDATE_RCODE.NOTZONE);
  try {
    return normalizeRecordName(`${name}.`, zone);
  } catch {
    throw new Fail(UPDATE_RCODE.REFUSED);
  }
}

/** §3.2: a prerequisite RR. */
function prerequisite(msg: Buffer, rr: RawRR, zone: string): UpdateRR {
  if (rr.ttl !== 0) throw new Fail(UPDATE_RCODE.FORMERR);
  const name = relative(rr.name, zone);
  const type = typeName(rr.type);
  if (rr.cls === CLASS_ANY || rr.cls === CLASS_NONE) {
    if (rr.rdlength !== 0 || (isMeta(rr.type) && rr.type !== TYPE_ANY)) throw new Fail(UPDATE_RCODE.FORMERR);
    return { name, type, cls: rr.cls === CLASS_ANY ? 'any' : 'none', ttl: 0, content: null };
  }
  if (rr.cls !== CLASS_IN || isMeta(rr.type)) throw new Fail(UPDATE_RCODE.FORMERR);
  return { name, type, cls: 'zone', ttl: 0, content: content(msg, type, rr.at, rr.rdlength) };
}

/** §3.4.1.3: an update RR. */
function update(msg: Buffer, rr: RawRR, zone: string): UpdateRR {
  const name = relative(rr.name, zone);
  const type = typeName(rr.type);
  if (rr.cls === CLASS_IN) {
    if (isMeta(rr.type)) throw new Fail(UPDATE_RCODE.FORMERR);
    if (rr.ttl > 0x7fffffff) throw new Fail(UPDATE_RCODE.FORMERR);
    // An SOA is the service's own and is ignored when applied; its rdata needs no reading.
    const c = type === 'SOA' ? null : content(msg, type, rr.at, rr.rdlength);
    if (c === null && type !== 'SOA') throw new Fail(UPDATE_RCODE.REFUSED); // a type the registry does not hold
    return { name, type, cls: 'zone', ttl: rr.ttl, content: c };
  }
  if (rr.cls === CLASS_ANY) {
    if (rr.ttl !== 0 || rr.rdlength !== 0 || (isMeta(rr.type) && rr.type !== TYPE_ANY)) throw new Fail(UPDATE_RCODE.FORMERR);
    return { name, type, cls: 'any', ttl: 0, content: null };
  }
  if (rr.cls === CLASS_NONE) {
    if (rr.ttl !== 0 || isMeta(rr.type)) throw new Fail(UPDATE_RCODE.FORMERR);
    // Deleting a record of a type we do not hold deletes nothing: no need to read its rdata.
    return { name, type, cls: 'none', ttl: 0, content: content(msg, type, rr.at, rr.rdlength) };
  }
  throw new Fail(UPDATE_RCODE.FORMERR);
}

/** Parses an UPDATE request (opcode 5, QR clear). */
export function parseUpdate(msg: Buffer): ParsedUpdate {
  let zoneEnd: number | undefined;
  try {
    if (msg.length < 12) throw new Fail(UPDATE_RCODE.FORMERR);
    // §3.1.1: exactly one zone, class IN here, type SOA.
    if (msg.readUInt16BE(4) !== 1) throw new Fail(UPDATE_RCODE.FORMERR);
    const z = readName(msg, 12);
    if (z.end + 4 > msg.length) throw new Fail(UPDATE_RCODE.FORMERR);
    zoneEnd = z.end + 4;
    if (msg.readUInt16BE(z.end) !== TYPE_SOA) throw new Fail(UPDATE_RCODE.FORMERR);
    if (msg.readUInt16BE(z.end + 2) !== CLASS_IN) throw new Fail(UPDATE_RCODE.REFUSED);
    const zone = z.name;
    let at = zoneEnd;
    const prerequisites: UpdateRR[] = [];
    const updates: UpdateRR[] = [];
    for (let i = 0; i < msg.readUInt16BE(6); i++) {
      const { rr, end } = readRR(msg, at);
      prerequisites.push(prerequisite(msg, rr, zone));
      at = end;
    }
    for (let i = 0; i < msg.readUInt16BE(8); i++) {
      const { rr, end } = readRR(msg, at);
      updates.push(update(msg, rr, zone));
      at = end;
    }
    return { kind: 'update', zone, prerequisites, updates, zoneEnd };
  } catch (e) {
    if (e instanceof Fail) return { kind: 'error', rcode: e.rcode, zoneEnd };
    throw e;
  }
}
