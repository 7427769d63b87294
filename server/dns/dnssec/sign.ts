/**
 * RRSIGs (RFC 4034 §3, RFC 4035 §2.2) over the RRSIG rdata prefix and the RRset in canonical form:
 * ECDSA P-256/SHA-256 and P-384/SHA-384 as r||s (RFC 6605 §4), Ed25519 as its 64 octets (RFC 8080).
 * Which keys sign a set goes by their role: key-signing keys sign the apex key sets (DNSKEY, CDS,
 * CDNSKEY), zone-signing keys the rest, a CSK both; a key signs only while a rollover says so.
 *
 * Signatures are made in daily epochs: every signature made on one UTC day has the same
 * validity window, from three hours before that day began to 14 days after. The three hours are
 * for clocks that disagree: a validator behind, or this server's own clock an hour or two ahead
 * before NTP steps it back. (dnssec-signzone starts its signatures an hour before now; ours start
 * that margin before midnight, so just after midnight the margin is all there is.) A signature is reused while its RRset object and the day stay the same, so
 * each RRset is signed about once a day, and a changed RRset (a new object in the zone)
 * is signed afresh. At the turn of the day new signatures are made on demand: a cached
 * signature always has at least 13 days left.
 */
import { sign, type KeyObject } from 'node:crypto';
import { T, type RRset } from '../index/rrset';
import { canonicalRRset, labelCount, nameWire } from './canonical';
import { keysVersion, type SigningKey } from './keys';

export const EPOCH_SECONDS = 86_400;
/** How far before the epoch the inception lies: validators with a slow clock, or this server's ahead, still accept. */
export const INCEPTION_SKEW = 3 * 3_600;
export const VALIDITY_SECONDS = 14 * 86_400;

export interface SignatureWindow {
  epoch: number;
  inception: number;
  expiration: number;
  /** Milliseconds since 1970 when this epoch ends and new signatures are due. */
  renewAt: number;
}

export function windowAt(nowMs: number): SignatureWindow {
  const epoch = Math.floor(nowMs / 1000 / EPOCH_SECONDS);
  const start = epoch * EPOCH_SECONDS;
  return { epoch, inception: start - INCEPTION_SKEW, expiration: start + VALIDITY_SECONDS, renewAt: (start + EPOCH_SECONDS) * 1000 };
}

/** The RRSIG rdata up to the signer's name (RFC 4034 §3.1), the part the signature also covers. */
export function rrsigPrefix(set: RRset, key: Pick<SigningKey, 'algorithm' | 'tag'>, w: Pick<SignatureWindow, 'inception' | 'expiration'>, signer: string): Buffer {
  const head = Buffer.alloc(18);
  head.writeUInt16BE(set.type, 0);
  head[2] = key.algorithm;
  head[3] = labelCount(set.name);
  head.writeUInt32BE(set.ttl >>> 0, 4);
  head.writeUInt32BE(w.expiration >>> 0, 8);
  head.writeUInt32BE(w.inception >>> 0, 12);
  head.writeUInt16BE(key.tag, 16);
  return Buffer.concat([head, nameWire(signer)]);
}

/** The signature of `data` in the DNSSEC form of the key's algorithm. */
export function signatureOf(algorithm: number, data: Buffer, key: KeyObject): Buffer {
  // ECDSA: r and s as two integers of the curve's size (RFC 6605 §4); Ed25519: its own 64 octets (RFC 8080 §4).
  if (algorithm === 13) return sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  if (algorithm === 14) return sign('sha384', data, { key, dsaEncoding: 'ieee-p1363' });
  if (algorithm === 15) return sign(null, data, key);
  throw new Error(`algorithm ${algorithm} is not one zonedeck signs with`);
}

/** One RRSIG rdata per key over `set` (several keys sign side by side during a rollover). */
export function rrsigs(set: RRset, keys: readonly SigningKey[], w: SignatureWindow, signer: string): Buffer[] {
  const covered = canonicalRRset(set, set.name, set.ttl);
  return keys.map((key) => {
    const prefix = rrsigPrefix(set, key, w, signer);
    return Buffer.concat([prefix, signatureOf(key.algorithm, signedData(prefix, covered), key.privateKey)]);
  });
}

/** The apex sets only key-signing keys sign (RFC 4035 §2.1; CDS and CDNSKEY as RFC 7344 §4.1 asks). */
const KEY_SETS = new Set([T.DNSKEY, 59, 60]);

/** The keys that sign `type` now: by role, among those a rollover has signing. */
export function signersOf(keys: readonly SigningKey[], type: number): SigningKey[] {
  const keySet = KEY_SETS.has(type);
  return keys.filter((k) => k.signing && (k.role === 'csk' || (keySet ? k.role === 'ksk' : k.role === 'zsk')));
}

/** What a signature covers: the RRSIG rdata prefix, then the RRset in canonical form (RFC 4034 §3.1.8.1). */
export const signedData = (prefix: Buffer, canonicalSet: Buffer): Buffer => Buffer.concat([prefix, canonicalSet]);

interface Cached {
  epoch: number;
  sig: RRset;
}

/** NSEC signatures kept by content at most; past this the map starts over (random names). */
const MAX_BY_CONTENT = 20_000;

/** A zone's signing state: its keys and the signatures made with them. */
export class ZoneSigner {
  /** By RRset object: the zone replaces an RRset object whenever its data changes. */
  private readonly byObject = new WeakMap<RRset, Cached>();
  /** By content, for records built per answer (compact denial NSECs). */
  private byContent = new Map<string, Cached>();
  private current: SignatureWindow;
  private readonly zoneSigners: SigningKey[];
  private readonly keySigners: SigningKey[];

  constructor(
    readonly zone: string,
    readonly keys: readonly SigningKey[],
    private readonly clock: () => number = Date.now,
  ) {
    this.current = windowAt(clock());
    this.zoneSigners = signersOf(keys, T.A);
    this.keySigners = signersOf(keys, T.DNSKEY);
  }

  /** The keys, and what each does, to tell whether a reload changed them. */
  get keyIds(): string {
    return keysVersion(this.keys);
  }

  /** The window signatures are made in now. */
  window(): SignatureWindow {
    const now = this.clock();
    if (now >= this.current.renewAt || now < this.current.renewAt - EPOCH_SECONDS * 1000) this.current = windowAt(now);
    return this.current;
  }

  private fresh(set: RRset, w: SignatureWindow): Cached {
    const keys = KEY_SETS.has(set.type) ? this.keySigners : this.zoneSigners;
    return { epoch: w.epoch, sig: { name: set.name, type: T.RRSIG, ttl: set.ttl, data: rrsigs(set, keys, w, this.zone) } };
  }

  /** The RRSIG RRset over a zone RRset, reused while the set and the epoch are unchanged. */
  sign(set: RRset): RRset {
    const w = this.window();
    let c = this.byObject.get(set);
    if (!c || c.epoch !== w.epoch) {
      c = this.fresh(set, w);
      this.byObject.set(set, c);
    }
    return c.sig;
  }

  /** The RRSIG RRset over a record made for one answer, reused by content. */
  signByContent(set: RRset): RRset {
    const w = this.window();
    const key = `${set.name} ${set.type} ${set.ttl} ${(set.data as Buffer[]).map((d) => d.toString('hex')).join(' ')}`;
    let c = this.byContent.get(key);
    if (!c || c.epoch !== w.epoch) {
      c = this.fresh(set, w);
      if (this.byContent.size >= MAX_BY_CONTENT) this.byContent = new Map();
      this.byContent.set(key, c);
    }
    return c.sig;
  }
}
