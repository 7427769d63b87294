/**
 * From query bytes to response bytes, for both transports: the cache first, then parse,
 * resolve, sign (DO bit and a signed zone) and encode. Zone transfers (RFC 5936) go to the
 * AXFR module over TCP only.
 * A message carrying a TSIG record (RFC 8945) is verified first and answered signed, every
 * message of a transfer too; it never touches the answer cache, whose key admits no TSIG.
 * An UPDATE (RFC 2136) must be signed: it is parsed here and applied by `options.update`.
 * Nothing a client sends escapes as an exception: an internal failure is SERVFAIL.
 */
import { allowsAddress, allowsWholeZone } from '../../core/scope';
import { DEFENCE, dnsDefences } from '../../metrics';
import { AnswerCache, questionKey } from './answer-cache';
import { axfrMessages } from '../transfer/axfr';
import { ixfrMessages, type HistoryReader, type IxfrMode } from '../transfer/ixfr';
import { signResolution } from '../dnssec/online';
import { SERVICE_KEY_USER, type DnsKey, type KeyLookup } from '../tsig/keyring';
import { COOKIE_OPTION_LENGTH, CookieJar, withOption, type QueryCookie } from './cookies';
import { carriesOpt, HEADER_LENGTH, parseQuery, type Query } from './query';
import { fnv, fnvName, RRL_CLASS, RRL_CLASS_OF, slipResponse, type ResponseRateLimiter } from './rrl';
import { resolve } from '../index/resolve';
import { encodeResponse, errorResponse, responseLimit } from './response';
import { CLASS_IN, RCODE, T } from '../index/rrset';
import { findTsig, FUDGE, signAnswer, signError, TSIG_ERROR, tsigSpace, verifyRequest, type TsigRecord } from '../tsig/tsig';
import { MAX_MESSAGE } from './writer';
import type { Zone } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';
import type { UpdateRequest } from '../../services/changes/dynamic-updates';
import { OPCODE_UPDATE, parseUpdate } from '../update/update-message';
import type { QueryStats } from '../analytics/query-stats';

type Fast = ReturnType<typeof questionKey>;

export interface HandlerOptions {
  /** Whether a client address may transfer zones (AXFR_ALLOW). */
  transferAllowed(address: string): boolean;
  /** TSIG keys by name; without them every signed message gets BADKEY. */
  keys?: KeyLookup;
  /** Seconds since 1970, for TSIG's time check (tests move it). */
  clock?: () => number;
  /** Applies a verified RFC 2136 update and answers its RCODE; without it UPDATE is NOTIMP. */
  update?(req: UpdateRequest): Promise<number>;
  /** The zones' history, for IXFR deltas (RFC 1995); without it IXFR gets the whole zone. */
  history?: HistoryReader;
  /** A zone transfer was answered (for the log). */
  onTransfer?(info: { zone: string; type: 'AXFR' | 'IXFR'; client: string; from?: number; to: number; mode: IxfrMode | 'full' }): void;
  onError?(err: unknown): void;
  /** Makes and checks DNS cookies (RFC 7873/9018); default: a random secret of this handler's own. */
  cookies?: CookieJar;
  /**
   * RATE_LIMIT_UPDATE's per-key bucket, taken in this thread before an update is handed on: a key's
   * flood is refused here and never reaches the main thread (which takes the shared per-key and
   * per-zone buckets again). Per key only: a zone's bucket is taken once the key may write to it.
   */
  updateAllowed?(key: string): boolean;
  /** DNS_RATE_LIMIT: response rate limiting over UDP; absent: off. */
  rrl?: ResponseRateLimiter;
  /** Per-zone query statistics (STATS_DAYS); absent: nothing is counted. */
  stats?: QueryStats;
}

/** A verified TSIG request: the key, the request's record, and the octets its answer must leave free. */
interface Signed {
  key: DnsKey;
  record: TsigRecord;
  reserve: number;
}

/**
 * Whether a verified key may transfer the zone from this address: a key of
 * the zone's user, or of a member of its team, whose scope admits the whole zone and the client's network.
 */
export function keyMayTransfer(key: DnsKey, zone: Zone, address: string): boolean {
  // The service's key (NOTIFY_TSIG) is the secondaries' own: every zone.
  if (key.userId === SERVICE_KEY_USER) return true;
  // A team's zone: any member (every role reads); a user's own zone: its user.
  const team = zone.domain.team_id;
  const reaches = team != null ? Boolean(key.teams?.has(team)) : key.userId === zone.domain.user_id;
  return reaches && allowsWholeZone(key.scope, zone.name) && allowsAddress(key.scope, address);
}

export interface Handler {
  /**
   * One UDP response, or null to stay silent. An answer that takes a write (UPDATE) comes later,
   * through `later`; without it such a message goes unanswered.
   */
  udp(msg: Buffer, address: string, later?: (out: Buffer | null) => void): Buffer | null;
  /** The TCP response messages (several for a zone transfer), or none; a promise for an IXFR, which reads the history. */
  tcp(msg: Buffer, address: string): Buffer[] | Promise<Buffer[]>;
  readonly cache: AnswerCache;
}

export function createHandler(index: ZoneIndex, options: HandlerOptions): Handler {
  const cache = new AnswerCache(index);
  const keys: KeyLookup = options.keys ?? { get: () => undefined };
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  const replays = new ReplayCache();
  const cookies = options.cookies ?? new CookieJar(CookieJar.secretFrom(undefined));
  const rrl = options.rrl ?? null;
  const stats = options.stats ?? null;
  /** Whether the message being answered returned a good server cookie (set by `cookieOption`, read by `udp`). */
  let goodCookie = false;

  /** Our COOKIE option for a query that carried one, judging the server cookie it returned. */
  function cookieOption(cookie: QueryCookie, address: string): Buffer {
    const verdict = cookies.check(cookie, address);
    dnsDefences[verdict === 'good' ? DEFENCE.COOKIE_GOOD : verdict === 'new' ? DEFENCE.COOKIE_NEW : DEFENCE.COOKIE_BAD]! += 1;
    goodCookie = verdict === 'good';
    return cookies.option(cookie, address);
  }

  /** An answer with the query's cookie option added to its OPT (the cookie's room was left by the encoder). */
  const withCookie = (out: Buffer, cookie: QueryCookie | null | undefined, address: string) => (cookie ? withOption(out, cookieOption(cookie, address)) : out);

  /** A message of a shape the cache does not take: one with a TSIG goes through verification. */
  function uncached(msg: Buffer, tcp: boolean, address: string, fast: Fast): Buffer[] | Promise<Buffer[]> {
    const update = !fast && msg.length >= 12 && !(msg[2]! & 0x80) && ((msg[2]! >> 3) & 0x0f) === OPCODE_UPDATE;
    // Only a message with additional records can carry a TSIG; answers to answers are never sent.
    if (!update && (fast || msg.length < 12 || (msg[10]! | msg[11]!) === 0 || msg[2]! & 0x80)) return answer(msg, tcp, address, fast);
    const rec = (msg[10]! | msg[11]!) === 0 ? null : findTsig(msg);
    //An unsigned UPDATE is refused.
    if (rec === null) return update ? [errorResponse(msg, RCODE.REFUSED, parseUpdate(msg).zoneEnd)] : answer(msg, tcp, address, fast);
    // RFC 8945 §5.2: a TSIG that cannot be read, or is not the last record, is a format error.
    if (rec === 'malformed') return [errorResponse(msg, RCODE.FORMERR)];
    // A key made a moment ago (API, CLI, another node): read the keys again before BADKEY.
    if (keys.get(rec.name) === undefined && keys.fresh) return keys.fresh(rec.name).then(() => signedMessage(msg, rec, tcp, address, update));
    return signedMessage(msg, rec, tcp, address, update);
  }

  /** A message with a TSIG: verified (§5.2), a replayed UPDATE refused, then answered and signed (§5.3). */
  function signedMessage(msg: Buffer, rec: TsigRecord, tcp: boolean, address: string, update: boolean): Buffer[] | Promise<Buffer[]> {
    const v = verifyRequest(msg, rec, (name) => keys.get(name), clock);
    if (!v.ok) {
      if (v.rcode === RCODE.FORMERR) return [errorResponse(msg, RCODE.FORMERR, rec.questionEnd, carriesOpt(msg))];
      // §5.3.2: BADKEY and BADSIG unsigned, BADTIME signed; NOTAUTH either way (with an OPT for an EDNS query).
      return [signError(errorResponse(msg, v.rcode, rec.questionEnd, carriesOpt(msg)), v, clock)];
    }
    // A signed UPDATE is taken once: the same MAC again inside its time window is a replay, answered
    // as a message outside its window (BADTIME, signed), which clients already know how to read.
    if (update && replays.seen(v.key.name, rec.mac, rec.timeSigned, clock())) {
      return [signError(errorResponse(msg, RCODE.NOTAUTH, rec.questionEnd), { ok: false, rcode: RCODE.NOTAUTH, error: TSIG_ERROR.BADTIME, record: rec, key: v.key }, clock)];
    }
    const signed = { key: v.key, record: rec, reserve: tsigSpace(v.key.name, v.key.algorithm) };
    const out = update ? dynamicUpdate(msg, signed, address) : answer(msg, tcp, address, null, signed);
    const sign = (messages: Buffer[]) => (messages.length > 0 ? signAnswer(messages, v.key, rec, clock) : []);
    return out instanceof Promise ? out.then(sign) : sign(out);
  }

  function answer(msg: Buffer, tcp: boolean, address: string, fast: Fast, signed: Signed | null = null): Buffer[] | Promise<Buffer[]> {
    const parsed = parseQuery(msg);
    if (parsed.kind === 'drop') return [];
    if (parsed.kind === 'error') return [errorResponse(msg, parsed.rcode, parsed.questionEnd, parsed.edns)];
    // RFC 7873 §5.4: no question, a client cookie: NOERROR with our cookie.
    if (parsed.kind === 'cookie') return [withCookie(errorResponse(msg, RCODE.NOERROR, HEADER_LENGTH, true), parsed.edns.cookie, address)];
    const q = parsed.query;
    const failure = check(q, tcp);
    if (failure !== null) return [withCookie(errorResponse(msg, failure, q.questionEnd, q.edns !== null), failure === RCODE.BADVERS ? null : q.edns?.cookie, address)];
    if (q.qtype === T.AXFR || q.qtype === T.IXFR) return transfer(msg, q, tcp, address, signed);
    let res = resolve(index, { qname: q.qname, qtype: q.qtype, tcp });
    // RFC 4035 §3.1: RRSIGs and NSECs only for a client that set DO.
    const signer = q.edns?.dnssecOk ? res.zone?.signer : null;
    if (signer) res = signResolution(res, q.qtype, signer);
    // A signed answer leaves room for its TSIG RR, and an answer to a cookie for our cookie: it is
    // truncated (TC) before either is cut off.
    const cookie = q.edns?.cookie;
    const out = encodeResponse(msg, q, res, responseLimit(q, tcp) - (signed?.reserve ?? 0) - (cookie ? COOKIE_OPTION_LENGTH : 0));
    // What rate limiting counts the answer as, as the resolver tells it (the wire cannot: a signed
    // NXDOMAIN goes out as NOERROR); the name's hash is taken once and kept with the cached copy.
    lastClass = RRL_CLASS_OF[res.kind];
    lastName = rrl ? (res.rrlName === undefined ? fnvName(out, HEADER_LENGTH, q.questionEnd - 4) : fnv(res.rrlName)) : 0;
    lastQuestionEnd = q.questionEnd;
    // A signed answer is cached until its signatures are due for renewal; the cookie is added to each copy.
    if (fast) cache.put(fast.key, out, res.zone, signer ? signer.window().renewAt : 0, lastClass, lastName);
    lastZone = res.zone;
    return [withCookie(out, cookie, address)];
  }

  /** A verified UPDATE: parsed here (FORMERR, NOTZONE…), applied by the services, answered with its RCODE and the zone section. */
  function dynamicUpdate(msg: Buffer, signed: Signed, address: string): Buffer[] | Promise<Buffer[]> {
    const p = parseUpdate(msg);
    if (p.kind === 'error') return [errorResponse(msg, p.rcode, p.zoneEnd)];
    if (!options.update) return [errorResponse(msg, RCODE.NOTIMP, p.zoneEnd)];
    if (options.updateAllowed && !options.updateAllowed(signed.key.name)) return [errorResponse(msg, RCODE.REFUSED, p.zoneEnd)];
    return options
      .update({ zone: p.zone, prerequisites: p.prerequisites, updates: p.updates, key: signed.key.name, address })
      .catch((err: unknown) => {
        options.onError?.(err);
        return RCODE.SERVFAIL as number;
      })
      .then((rcode) => [errorResponse(msg, rcode, p.zoneEnd)]);
  }

  /** The RCODE for a query that cannot be answered normally, or null. */
  function check(q: Query, tcp: boolean): number | null {
    // RFC 6891 §6.1.3: only version 0 is known.
    if (q.edns && q.edns.version !== 0) return RCODE.BADVERS;
    if (q.qclass !== CLASS_IN) return RCODE.REFUSED;
    // RFC 5936 §4.2: no zone transfer over UDP.
    if (!tcp && q.qtype === T.AXFR) return RCODE.NOTIMP;
    return null;
  }

  function transfer(msg: Buffer, q: Query, tcp: boolean, address: string, signed: Signed | null): Buffer[] | Promise<Buffer[]> {
    const zone = index.get(q.qname);
    if (!zone) return [errorResponse(msg, index.find(q.qname) ? RCODE.NOTAUTH : RCODE.REFUSED, q.questionEnd, q.edns !== null)];
    // AXFR_ALLOW, or a TSIG key of the zone's owner from anywhere.
    const allowed = options.transferAllowed(address) || (signed !== null && keyMayTransfer(signed.key, zone, address));
    if (!allowed) return [errorResponse(msg, RCODE.REFUSED, q.questionEnd, q.edns !== null)];
    // RFC 1995 §2: an IXFR over UDP gets the SOA alone, telling the client to use TCP.
    if (!tcp) {
      const res = { rcode: RCODE.NOERROR, aa: true, zone, answer: [zone.soa], authority: [], additional: [], kind: 'answer' as const };
      return [encodeResponse(msg, q, res, responseLimit(q, false) - (signed?.reserve ?? 0))];
    }
    const to = zone.domain.serial_number;
    // A signed transfer leaves room for the TSIG RR after each message.
    const capacity = MAX_MESSAGE - (signed?.reserve ?? 0);
    if (q.qtype === T.IXFR) {
      return ixfrMessages(msg, q, zone, options.history, capacity)
        .catch((err: unknown) => {
          options.onError?.(err);
          return { mode: 'full' as const, messages: axfrMessages(msg, q, zone, capacity) };
        })
        .then(({ mode, messages }) => {
          options.onTransfer?.({ zone: zone.name, type: 'IXFR', client: address, from: q.ixfrSerial, to, mode });
          return messages;
        });
    }
    options.onTransfer?.({ zone: zone.name, type: 'AXFR', client: address, to, mode: 'full' });
    return axfrMessages(msg, q, zone, capacity);
  }

  /** The zone of the answer `answer` made last (for query statistics). */
  let lastZone: Zone | null = null;
  /**
   * For response rate limiting, what `answer` made last: its class (0: it made none, judge the
   * response by its RCODE), the hash of the name it counts under, and where its question ends.
   */
  let lastClass = 0;
  let lastName = 0;
  let lastQuestionEnd = 0;

  /** The cookie of a query the cache took (questionKey found it). */
  const fastCookie = (msg: Buffer, fast: NonNullable<Fast>): QueryCookie => ({
    client: msg.subarray(fast.cookieAt, fast.cookieAt + 8),
    server: fast.cookieLength > 8 ? msg.subarray(fast.cookieAt + 8, fast.cookieAt + fast.cookieLength) : null,
  });

  /**
   * DNS_RATE_LIMIT: the response as it goes out (whole, truncated, or not at all), judged by its
   * class and the hash of the name it counts under (rrl.ts); a client that returned a good cookie is
   * not limited. `questionEnd` is where the response's question ends.
   */
  function limit(out: Buffer, address: string, cls: number, name: number, questionEnd: number): Buffer | null {
    if (goodCookie) return out;
    const verdict = rrl!.judge(address, cls, name, questionEnd > HEADER_LENGTH ? out.readUInt16BE(questionEnd - 4) : 0);
    if (verdict === 'pass') return out;
    if (verdict === 'drop') return null;
    return slipResponse(out, questionEnd, (out[10]! | out[11]!) > 0);
  }

  /** A response the resolver did not make (an error, an IXFR's SOA over UDP): judged by its RCODE and question. */
  function limitByWire(out: Buffer, address: string): Buffer | null {
    if (goodCookie || out.length < HEADER_LENGTH) return out;
    const rcode = out[3]! & 0x0f;
    let end = HEADER_LENGTH;
    if (out[4] === 0 && out[5] === 1) {
      while (end < out.length && out[end]! !== 0) end += out[end]! + 1;
      end += 5;
      if (end > out.length) return out;
    }
    const cls =
      rcode === RCODE.NOERROR ? (out[6]! | out[7]! ? RRL_CLASS.ANSWER : RRL_CLASS.NODATA) : rcode === RCODE.NXDOMAIN ? RRL_CLASS.NXDOMAIN : rcode === RCODE.REFUSED ? RRL_CLASS.REFUSED : RRL_CLASS.ERROR;
    const name = cls === RRL_CLASS.REFUSED || cls === RRL_CLASS.ERROR || end === HEADER_LENGTH ? 0 : fnvName(out, HEADER_LENGTH, end - 4);
    return limit(out, address, cls, name, end);
  }

  /** SERVFAIL for a query that broke something inside (and the error logged), never a crash. */
  function failed(msg: Buffer, err: unknown): Buffer | null {
    options.onError?.(err);
    return msg.length >= 12 && !(msg[2]! & 0x80) ? errorResponse(msg, RCODE.SERVFAIL) : null;
  }

  return {
    cache,
    udp(msg, address, later) {
      try {
        // The hot path: one key read from the packet, one map lookup, one copy.
        goodCookie = false;
        const fast = questionKey(msg, false);
        const hit = fast && cache.answer(msg, fast.key, fast.nameEnd);
        if (hit) {
          const out = fast.cookieAt ? withCookie(hit, fastCookie(msg, fast), address) : hit;
          if (stats) stats.countHit(cache.lastEntry!, msg, out, false);
          return rrl ? limit(out, address, cache.lastEntry!.rrlClass, cache.lastEntry!.rrlName, fast.nameEnd + 4) : out;
        }
        // Only an UPDATE waits (for its write); an IXFR over UDP is answered with the SOA alone.
        lastZone = null;
        lastClass = 0;
        const out = uncached(msg, false, address, fast);
        if (out instanceof Promise) {
          out.then(
            (o) => later?.(o[0] ?? null),
            (err: unknown) => later?.(failed(msg, err)),
          );
          return null;
        }
        const first = out[0] ?? null;
        if (stats && first) stats.count(lastZone, msg, first, false);
        if (!rrl || !first) return first;
        return lastClass ? limit(first, address, lastClass, lastName, lastQuestionEnd) : limitByWire(first, address);
      } catch (err) {
        return failed(msg, err);
      }
    },
    tcp(msg, address) {
      try {
        const fast = questionKey(msg, true);
        const hit = fast && cache.answer(msg, fast.key, fast.nameEnd);
        if (hit) {
          if (stats) stats.countHit(cache.lastEntry!, msg, hit, true);
          return [fast.cookieAt ? withCookie(hit, fastCookie(msg, fast), address) : hit];
        }
        lastZone = null;
        const out = uncached(msg, true, address, fast);
        // A transfer of several messages or an IXFR (a promise) is not counted; a one-message transfer counts under no zone (`transfer` leaves lastZone unset).
        if (stats && !(out instanceof Promise) && out.length === 1) stats.count(lastZone, msg, out[0]!, true);
        return out;
      } catch (err) {
        const out = failed(msg, err);
        return out ? [out] : [];
      }
    },
  };
}

/**
 * The MACs of signed UPDATEs seen within the TSIG time window (RFC 8945 §5.2.3: ±300 s), per key,
 * so that a captured UPDATE sent again is refused. Bounded: at most MAX_PER_KEY entries a key and
 * MAX_KEYS keys, the oldest forgotten first; an entry outlives the window it could be replayed in.
 * Per DNS thread: a replay sent to another node is not seen (docs/dynamic-updates.md).
 */
class ReplayCache {
  private static readonly MAX_PER_KEY = 10_000;
  private static readonly MAX_KEYS = 1_000;
  private readonly byKey = new Map<string, Map<string, number>>();

  /** Whether this MAC was seen before (and records it); `now` and `signed` in seconds. */
  seen(key: string, mac: Uint8Array, signed: number, now: number): boolean {
    let macs = this.byKey.get(key);
    if (!macs) {
      if (this.byKey.size >= ReplayCache.MAX_KEYS) this.byKey.delete(this.byKey.keys().next().value!);
      macs = new Map();
      this.byKey.set(key, macs);
    }
    const id = Buffer.from(mac).toString('base64');
    const until = macs.get(id);
    if (until !== undefined && until >= now) return true;
    // Expired entries leave from the front (insertion order is time order, near enough).
    for (const [k, t] of macs) {
      if (t >= now && macs.size < ReplayCache.MAX_PER_KEY) break;
      macs.delete(k);
    }
    macs.set(id, Math.max(signed, now) + FUDGE);
    return false;
  }
}

