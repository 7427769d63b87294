/**
 * From query bytes to response bytes, for both transports: the cache first, then parse,
 * resolve, sign (DO bit and a signed zone) and encode. Zone transfers (RFC 5936) go to
 * transfer/transfer-answer.ts, over TCP only.
 * A message carrying a TSIG record (RFC 8945) is verified first and answered signed, every
 * message of a transfer too; it never touches the answer cache, whose key admits no TSIG.
 * An UPDATE (RFC 2136) must be signed: it is parsed and handed on by update/update-answer.ts.
 * Nothing a client sends escapes as an exception: an internal failure is SERVFAIL.
 *
 * One handler per DNS thread, a class whose fields are what it keeps between packets (the
 * cache, the cookie jar, the rate limiter) and what the answer being made leaves for the step
 * after it (`last*`, `goodCookie`): a query makes no closure and no object beyond its answer.
 */
import { DEFENCE, dnsDefences } from '../../counters';
import { signResolution } from '../dnssec/online';
import { passResolution } from '../dnssec/passthrough';
import { resolve } from '../index/resolve';
import { CLASS_IN, RCODE, T } from '../index/rrset';
import type { Zone } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';
import type { QueryStats } from '../analytics/query-stats';
import { answerNotify, OPCODE_NOTIFY } from '../transfer/notify-answer';
import { answerTransfer, type TransferOptions } from '../transfer/transfer-answer';
import type { KeyLookup, SignedRequest } from '../tsig/keyring';
import { ReplayCache } from '../tsig/replay-cache';
import { findTsig, signAnswer, signError, TSIG_ERROR, tsigSpace, verifyRequest, type TsigRecord } from '../tsig/tsig';
import { answerUpdate, type UpdateOptions } from '../update/update-answer';
import { OPCODE_UPDATE, parseUpdate } from '../update/update-message';
import { AnswerCache, questionKey } from './answer-cache';
import { COOKIE_OPTION_LENGTH, CookieJar, withOption, type QueryCookie } from './cookies';
import { carriesOpt, HEADER_LENGTH, parseQuery, type Query } from './query';
import { encodeResponse, errorResponse, responseLimit } from './response';
import { fnv, fnvName, RRL_CLASS, RRL_CLASS_OF, slipResponse, type ResponseRateLimiter } from './rrl';

type Fast = ReturnType<typeof questionKey>;

export interface HandlerOptions extends TransferOptions, UpdateOptions {
  /** TSIG keys by name; without them every signed message gets BADKEY. */
  keys?: KeyLookup;
  /** Seconds since 1970, for TSIG's time check (tests move it). */
  clock?: () => number;
  /** Makes and checks DNS cookies (RFC 7873/9018); default: a random secret of this handler's own. */
  cookies?: CookieJar;
  /** DNS_RATE_LIMIT: response rate limiting over UDP; absent: off. */
  rrl?: ResponseRateLimiter;
  /** Per-zone query statistics (STATS_DAYS); absent: nothing is counted. */
  stats?: QueryStats;
  /** A NOTIFY from a secondary zone's primary was taken: the main thread checks the zone now. */
  notified?: (zoneId: number) => void;
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
  return new QueryHandler(index, options);
}

class QueryHandler implements Handler {
  readonly cache: AnswerCache;
  private readonly keys: KeyLookup;
  private readonly clock: () => number;
  private readonly replays = new ReplayCache();
  private readonly cookies: CookieJar;
  private readonly rrl: ResponseRateLimiter | null;
  private readonly stats: QueryStats | null;
  /** Whether the message being answered returned a good server cookie (set by `cookieOption`, read by `udp`). */
  private goodCookie = false;
  /** The zone of the answer `answer` made last (for query statistics). */
  private lastZone: Zone | null = null;
  /**
   * For response rate limiting, what `answer` made last: its class (0: it made none, judge the
   * response by its RCODE), the hash of the name it counts under, and where its question ends.
   */
  private lastClass = 0;
  private lastName = 0;
  private lastQuestionEnd = 0;

  constructor(
    private readonly index: ZoneIndex,
    private readonly options: HandlerOptions,
  ) {
    this.cache = new AnswerCache(index);
    this.keys = options.keys ?? { get: () => undefined };
    this.clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
    this.cookies = options.cookies ?? new CookieJar(CookieJar.secretFrom(undefined));
    this.rrl = options.rrl ?? null;
    this.stats = options.stats ?? null;
    // The listeners take these as functions: bound once here, not per packet.
    this.udp = this.udp.bind(this);
    this.tcp = this.tcp.bind(this);
  }

  udp(msg: Buffer, address: string, later?: (out: Buffer | null) => void): Buffer | null {
    try {
      // The hot path: one key read from the packet, one map lookup, one copy.
      this.goodCookie = false;
      const fast = questionKey(msg, false);
      const hit = fast && this.cache.answer(msg, fast.key, fast.nameEnd);
      if (hit) {
        const out = fast.cookieAt ? this.withCookie(hit, fastCookie(msg, fast), address) : hit;
        const entry = this.cache.lastEntry!;
        if (this.stats) this.stats.countHit(entry, msg, out, false);
        return this.rrl ? this.limit(out, address, entry.rrlClass, entry.rrlName, fast.nameEnd + 4) : out;
      }
      // Only an UPDATE waits (for its write); an IXFR over UDP is answered with the SOA alone.
      this.lastZone = null;
      this.lastClass = 0;
      const out = this.uncached(msg, false, address, fast);
      if (out instanceof Promise) {
        out.then(
          (o) => later?.(o[0] ?? null),
          (err: unknown) => later?.(this.failed(msg, err)),
        );
        return null;
      }
      const first = out[0] ?? null;
      if (this.stats && first) this.stats.count(this.lastZone, msg, first, false);
      if (!this.rrl || !first) return first;
      return this.lastClass ? this.limit(first, address, this.lastClass, this.lastName, this.lastQuestionEnd) : this.limitByWire(first, address);
    } catch (err) {
      return this.failed(msg, err);
    }
  }

  tcp(msg: Buffer, address: string): Buffer[] | Promise<Buffer[]> {
    try {
      const fast = questionKey(msg, true);
      const hit = fast && this.cache.answer(msg, fast.key, fast.nameEnd);
      if (hit) {
        if (this.stats) this.stats.countHit(this.cache.lastEntry!, msg, hit, true);
        return [fast.cookieAt ? this.withCookie(hit, fastCookie(msg, fast), address) : hit];
      }
      this.lastZone = null;
      const out = this.uncached(msg, true, address, fast);
      // A transfer of several messages or an IXFR (a promise) is not counted; a one-message transfer counts under no zone (it leaves lastZone unset).
      if (this.stats && !(out instanceof Promise) && out.length === 1) this.stats.count(this.lastZone, msg, out[0]!, true);
      return out;
    } catch (err) {
      const out = this.failed(msg, err);
      return out ? [out] : [];
    }
  }

  /** A message of a shape the cache does not take: one with a TSIG goes through verification. */
  private uncached(msg: Buffer, tcp: boolean, address: string, fast: Fast): Buffer[] | Promise<Buffer[]> {
    const update = !fast && msg.length >= 12 && !(msg[2]! & 0x80) && ((msg[2]! >> 3) & 0x0f) === OPCODE_UPDATE;
    // Only a message with additional records can carry a TSIG; answers to answers are never sent.
    if (!update && (fast || msg.length < 12 || (msg[10]! | msg[11]!) === 0 || msg[2]! & 0x80)) return this.answer(msg, tcp, address, fast);
    const rec = (msg[10]! | msg[11]!) === 0 ? null : findTsig(msg);
    // An unsigned UPDATE is refused.
    if (rec === null) return update ? [errorResponse(msg, RCODE.REFUSED, parseUpdate(msg).zoneEnd)] : this.answer(msg, tcp, address, fast);
    // RFC 8945 §5.2: a TSIG that cannot be read, or is not the last record, is a format error.
    if (rec === 'malformed') return [errorResponse(msg, RCODE.FORMERR)];
    // A key made a moment ago (API, CLI, another node): read the keys again before BADKEY.
    if (this.keys.get(rec.name) === undefined && this.keys.fresh) return this.keys.fresh(rec.name).then(() => this.signedMessage(msg, rec, tcp, address, update));
    return this.signedMessage(msg, rec, tcp, address, update);
  }

  /** A message with a TSIG: verified (§5.2), a replayed UPDATE refused, then answered and signed (§5.3). */
  private signedMessage(msg: Buffer, rec: TsigRecord, tcp: boolean, address: string, update: boolean): Buffer[] | Promise<Buffer[]> {
    const { clock } = this;
    const v = verifyRequest(msg, rec, (name) => this.keys.get(name), clock);
    if (!v.ok) {
      if (v.rcode === RCODE.FORMERR) return [errorResponse(msg, RCODE.FORMERR, rec.questionEnd, carriesOpt(msg))];
      // §5.3.2: BADKEY and BADSIG unsigned, BADTIME signed; NOTAUTH either way (with an OPT for an EDNS query).
      return [signError(errorResponse(msg, v.rcode, rec.questionEnd, carriesOpt(msg)), v, clock)];
    }
    // A signed UPDATE is taken once: the same MAC again inside its time window is a replay, answered
    // as a message outside its window (BADTIME, signed), which clients already know how to read.
    if (update && this.replays.seen(v.key.name, rec.mac, rec.timeSigned, clock())) {
      return [signError(errorResponse(msg, RCODE.NOTAUTH, rec.questionEnd), { ok: false, rcode: RCODE.NOTAUTH, error: TSIG_ERROR.BADTIME, record: rec, key: v.key }, clock)];
    }
    const signed: SignedRequest = { key: v.key, record: rec, reserve: tsigSpace(v.key.name, v.key.algorithm) };
    const out = update ? answerUpdate(this.options, msg, signed, address) : this.answer(msg, tcp, address, null, signed);
    const sign = (messages: Buffer[]) => (messages.length > 0 ? signAnswer(messages, v.key, rec, clock) : []);
    return out instanceof Promise ? out.then(sign) : sign(out);
  }

  /** A query: parsed, checked, resolved (and signed for DO), encoded, cached when the cache may take it. */
  private answer(msg: Buffer, tcp: boolean, address: string, fast: Fast, signed: SignedRequest | null = null): Buffer[] | Promise<Buffer[]> {
    // A NOTIFY from a primary (RFC 1996), signed or not, is its own kind of message.
    if (!fast && msg.length >= 12 && !(msg[2]! & 0x80) && ((msg[2]! >> 3) & 0x0f) === OPCODE_NOTIFY) return answerNotify(this.index, msg, address, signed, this.options.notified);
    const parsed = parseQuery(msg);
    if (parsed.kind === 'drop') return [];
    if (parsed.kind === 'error') return [errorResponse(msg, parsed.rcode, parsed.questionEnd, parsed.edns)];
    // RFC 7873 §5.4: no question, a client cookie: NOERROR with our cookie.
    if (parsed.kind === 'cookie') return [this.withCookie(errorResponse(msg, RCODE.NOERROR, HEADER_LENGTH, true), parsed.edns.cookie, address)];
    const q = parsed.query;
    const failure = check(q, tcp);
    if (failure !== null) return [this.withCookie(errorResponse(msg, failure, q.questionEnd, q.edns !== null), failure === RCODE.BADVERS ? null : q.edns?.cookie, address)];
    if (q.qtype === T.AXFR || q.qtype === T.IXFR) return answerTransfer(this.index, this.options, msg, q, tcp, address, signed);
    let res = resolve(this.index, { qname: q.qname, qtype: q.qtype, tcp });
    // A weighted pool answers one member per query, picked afresh each time: never from the cache.
    const picked = res.zone?.weighted ? res.zone.weighted.pick(res.answer) : res.answer;
    const uncacheable = picked !== res.answer;
    if (uncacheable) res = { ...res, answer: picked };
    // A secondary before its first transfer, or past its SOA expire without a refresh: SERVFAIL (RFC 1035 §3.3.13).
    if (res.zone && res.zone.servedUntil !== Infinity && res.zone.servedUntil <= Date.now()) {
      this.lastZone = res.zone;
      return [this.withCookie(errorResponse(msg, RCODE.SERVFAIL, q.questionEnd, q.edns !== null), q.edns?.cookie, address)];
    }
    // RFC 4035 §3.1: RRSIGs and NSECs only for a client that set DO.
    const signer = q.edns?.dnssecOk ? res.zone?.signer : null;
    let expiresAt = 0;
    if (signer) {
      res = signResolution(res, q.qtype, signer);
      expiresAt = signer.window().renewAt;
    } else if (q.edns?.dnssecOk && res.zone?.domain.kind === 'secondary') {
      // A secondary of a signed primary: the primary's own signatures and proofs, as transferred.
      ({ res, expiresAt } = passResolution(res));
    }
    // A signed answer leaves room for its TSIG RR, and an answer to a cookie for our cookie: it is
    // truncated (TC) before either is cut off.
    const cookie = q.edns?.cookie;
    const out = encodeResponse(msg, q, res, responseLimit(q, tcp) - (signed?.reserve ?? 0) - (cookie ? COOKIE_OPTION_LENGTH : 0));
    // What rate limiting counts the answer as, as the resolver tells it (the wire cannot: a signed
    // NXDOMAIN goes out as NOERROR); the name's hash is taken once and kept with the cached copy.
    this.lastClass = RRL_CLASS_OF[res.kind];
    this.lastName = this.rrl ? (res.rrlName === undefined ? fnvName(out, HEADER_LENGTH, q.questionEnd - 4) : fnv(res.rrlName)) : 0;
    this.lastQuestionEnd = q.questionEnd;
    // A signed answer is cached until its signatures are due for renewal (a passed-through one until
    // the first of them expires), and a secondary's no longer than it is answered; the cookie is added to each copy.
    const until = Math.min(expiresAt || Infinity, res.zone?.servedUntil ?? Infinity);
    if (fast && !uncacheable) this.cache.put(fast.key, out, res.zone, until === Infinity ? 0 : until, this.lastClass, this.lastName);
    this.lastZone = res.zone;
    return [this.withCookie(out, cookie, address)];
  }

  /** An answer with the query's cookie option added to its OPT (the cookie's room was left by the encoder). */
  private withCookie(out: Buffer, cookie: QueryCookie | null | undefined, address: string): Buffer {
    return cookie ? withOption(out, this.cookieOption(cookie, address)) : out;
  }

  /** Our COOKIE option for a query that carried one, judging the server cookie it returned. */
  private cookieOption(cookie: QueryCookie, address: string): Buffer {
    const verdict = this.cookies.check(cookie, address);
    dnsDefences[verdict === 'good' ? DEFENCE.COOKIE_GOOD : verdict === 'new' ? DEFENCE.COOKIE_NEW : DEFENCE.COOKIE_BAD]! += 1;
    this.goodCookie = verdict === 'good';
    return this.cookies.option(cookie, address);
  }

  /**
   * DNS_RATE_LIMIT: the response as it goes out (whole, truncated, or not at all), judged by its
   * class and the hash of the name it counts under (rrl.ts); a client that returned a good cookie is
   * not limited. `questionEnd` is where the response's question ends.
   */
  private limit(out: Buffer, address: string, cls: number, name: number, questionEnd: number): Buffer | null {
    if (this.goodCookie) return out;
    const verdict = this.rrl!.judge(address, cls, name, questionEnd > HEADER_LENGTH ? out.readUInt16BE(questionEnd - 4) : 0);
    if (verdict === 'pass') return out;
    if (verdict === 'drop') return null;
    return slipResponse(out, questionEnd, (out[10]! | out[11]!) > 0);
  }

  /** A response the resolver did not make (an error, an IXFR's SOA over UDP): judged by its RCODE and question. */
  private limitByWire(out: Buffer, address: string): Buffer | null {
    if (this.goodCookie || out.length < HEADER_LENGTH) return out;
    const rcode = out[3]! & 0x0f;
    let end = HEADER_LENGTH;
    if (out[4] === 0 && out[5] === 1) {
      while (end < out.length && out[end]! !== 0) end += out[end]! + 1;
      end += 5;
      if (end > out.length) return out;
    }
    const cls =
      rcode === RCODE.NOERROR
        ? out[6]! | out[7]!
          ? RRL_CLASS.ANSWER
          : RRL_CLASS.NODATA
        : rcode === RCODE.NXDOMAIN
          ? RRL_CLASS.NXDOMAIN
          : rcode === RCODE.REFUSED
            ? RRL_CLASS.REFUSED
            : RRL_CLASS.ERROR;
    const name = cls === RRL_CLASS.REFUSED || cls === RRL_CLASS.ERROR || end === HEADER_LENGTH ? 0 : fnvName(out, HEADER_LENGTH, end - 4);
    return this.limit(out, address, cls, name, end);
  }

  /** SERVFAIL for a query that broke something inside (and the error logged), never a crash. */
  private failed(msg: Buffer, err: unknown): Buffer | null {
    this.options.onError?.(err);
    return msg.length >= 12 && !(msg[2]! & 0x80) ? errorResponse(msg, RCODE.SERVFAIL) : null;
  }
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

/** The cookie of a query the cache took (questionKey found it). */
function fastCookie(msg: Buffer, fast: NonNullable<Fast>): QueryCookie {
  return {
    client: msg.subarray(fast.cookieAt, fast.cookieAt + 8),
    server: fast.cookieLength > 8 ? msg.subarray(fast.cookieAt + 8, fast.cookieAt + fast.cookieLength) : null,
  };
}
