/**
 * One reading of a master file: what an entry means depends on those before it ($ORIGIN, $TTL,
 * the last owner and TTL, the first SOA, the records so far), so that state is this class's
 * fields, and each kind of entry (directive, $GENERATE, record, SOA) is a method of its own.
 * `steps()` reads it all, pausing (a yield) every CHUNK entries and records.
 */
import { APEX, isInZone, normalizeRecordName } from '../domain-name';
import { RuleError } from '../errors';
import { absoluteName } from '../rdata/fields';
import type { Token } from '../rdata/presentation';
import { RECORD_TYPE_BY_NAME } from '../record-types';
import { DNSSEC_TYPES, isSoaLine, readPrefix } from './entry-prefix';
import { generateEntries, TooManyRecords } from './generate';
import { ZoneLexer, type Entry } from './lexer';
import { countRecords } from './record-count';
import { parseTtlText } from './ttl-text';
import type { ParsedZoneFile, ParseOptions } from './types';

/** Longest error message kept (a name quoted in it is cut): an error body stays small whatever the file holds. */
const MAX_MESSAGE = 240;
/** Longest logical line (an entry with its parentheses): rdata is at most 65,535 octets, written in hex twice that. */
const MAX_ENTRY_CHARS = 140_000;
/** Longest owner name as written: 255 octets, each possibly written as a four-character \DDD escape. */
const MAX_OWNER_CHARS = 1024;
/** Entries read between two yields of the chunked reader (about 10–20 ms of work). */
const CHUNK = 2000;

const clip = (message: string): string => (message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);
const fqdnText = (name: string): string => (name === '.' ? '.' : name.replace(/\.$/, '').toLowerCase());
const shortName = (owner: string): string => (owner.length > 80 ? `${owner.slice(0, 60)}…` : owner);

function entryChars(entry: Entry): number {
  let chars = 0;
  for (const t of entry.tokens) chars += t.text.length;
  return chars;
}

export class ZoneFileReader {
  readonly out: ParsedZoneFile = { records: [], ignored: [], errors: [] };
  /** The zone: absolute, lower case, without the dot. */
  private readonly zone: string;
  private readonly maxErrors: number;
  private readonly maxRecords: number;
  /** `name type content` of each record kept, with its line: a repeat is ignored. */
  private readonly seen = new Map<string, number>();
  /** $ORIGIN: absolute, without the dot ('' for the root). */
  private origin: string;
  /** Whether the file set $ORIGIN (Cloudflare's exports do not). */
  private originSet = false;
  private dollarTtl: number | undefined;
  /** The last TTL written, the default when the file has no $TTL (RFC 1035 §5.1). */
  private lastTtl: number | undefined;
  /** The last owner written: absolute, with the dot. */
  private lastOwner: string | undefined;
  /** The first SOA's rdata as written: a zone transfer's closing SOA repeats it. */
  private soaText = '';
  /** Entries and records read, counted for the pauses. */
  private work = 0;

  constructor(
    private readonly text: string,
    origin: string,
    private readonly opts: ParseOptions,
  ) {
    this.zone = origin.replace(/\.$/, '').toLowerCase();
    this.origin = this.zone;
    this.maxErrors = opts.maxErrors ?? 20;
    this.maxRecords = opts.maxRecords ?? 200_000;
  }

  /** Reads the file: first counts its records against the limit, then reads every entry. */
  *steps(): Generator<void, ParsedZoneFile> {
    const tooMany = yield* countRecords(this.text, this.maxRecords);
    if (tooMany) {
      this.fail(tooMany.line, tooMany.message);
      return this.out;
    }
    const lexer = new ZoneLexer(this.text);
    for (let entry = lexer.next(); entry; entry = lexer.next()) {
      if (this.out.errors.length >= this.maxErrors) {
        this.fail(entry.line, `stopped after ${this.maxErrors} errors`);
        break;
      }
      if (entry.error) {
        this.fail(entry.line, entry.error);
        continue;
      }
      if (++this.work % CHUNK === 0) yield;
      if (entryChars(entry) > MAX_ENTRY_CHARS) {
        this.fail(entry.line, `the entry is longer than ${MAX_ENTRY_CHARS} characters (rdata is at most 65,535 octets)`);
        continue;
      }
      try {
        const first = entry.blankOwner ? '' : entry.tokens[0]!.text;
        if (first.toUpperCase() === '$GENERATE') yield* this.generate(entry.line, entry.tokens);
        else if (first.startsWith('$')) this.directive(entry.tokens);
        else this.record(entry.line, entry.tokens, entry.blankOwner);
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
        this.fail(entry.line, e.message);
        if (e instanceof TooManyRecords) break;
      }
    }
    return this.out;
  }

  private fail(line: number, message: string): void {
    this.out.errors.push({ line, message: clip(message) });
  }

  /** $ORIGIN, $TTL; $INCLUDE and anything else refused. */
  private directive(tokens: Token[]): void {
    const args = tokens.slice(1);
    switch (tokens[0]!.text.toUpperCase()) {
      case '$ORIGIN': {
        if (args.length !== 1) throw new RuleError('$ORIGIN must name one domain');
        const abs = absoluteName(args[0]!.text, this.origin);
        this.origin = abs === '.' ? '' : fqdnText(abs);
        this.originSet = true;
        return;
      }
      case '$TTL':
        if (args.length !== 1) throw new RuleError('$TTL must give one TTL');
        this.dollarTtl = parseTtlText(args[0]!.text);
        return;
      case '$INCLUDE':
        throw new RuleError('$INCLUDE is not supported: paste the included file in its place');
      default:
        throw new RuleError(`unknown directive ${tokens[0]!.text}`);
    }
  }

  /** A $GENERATE entry's records, read as they are made, with pauses like any other entries. */
  private *generate(line: number, tokens: Token[]): Generator<void> {
    for (const gen of generateEntries(tokens.slice(1), this.maxRecords - this.out.records.length)) {
      this.record(line, gen, false);
      if (++this.work % CHUNK === 0) yield;
    }
  }

  /** An entry of records: [owner] [ttl] [class] type rdata. */
  private record(line: number, tokens: Token[], blankOwner: boolean): void {
    const owner = this.owner(tokens, blankOwner);
    const { ttl, type, rdata } = readPrefix(tokens, blankOwner ? 0 : 1);
    const name = this.relativeName(owner);
    if (ttl !== undefined && this.dollarTtl === undefined) this.lastTtl = ttl;
    if (type === 'SOA') return this.soa(line, name, rdata, ttl);
    if (DNSSEC_TYPES[type] !== undefined) {
      this.out.ignored.push({ line, name, record_type: type, reason: 'DNSSEC records are made by zonedeck when the zone is signed' });
      return;
    }
    const rt = RECORD_TYPE_BY_NAME.get(type);
    if (!rt) throw new RuleError(`record type ${type} is not supported`);
    const content = rt.fromTokens(rdata, this.origin);
    const effective = ttl ?? this.dollarTtl ?? this.lastTtl ?? this.opts.defaultTtl ?? 3600;
    if (name === APEX && type === 'NS' && !this.opts.keepApexNs) {
      this.out.ignored.push({ line, name, record_type: type, reason: 'the apex NS set is managed by zonedeck' });
      return;
    }
    const key = `${name} ${type} ${content}`;
    const earlier = this.seen.get(key);
    if (earlier !== undefined) {
      this.out.ignored.push({ line, name, record_type: type, reason: `the same record as on line ${earlier}` });
      return;
    }
    this.seen.set(key, line);
    if (this.out.records.length >= this.maxRecords) throw new TooManyRecords(`the file holds more than ${this.maxRecords} records`);
    this.out.records.push({ name, record_type: type, ttl: effective, content, line });
  }

  /** The entry's owner, absolute with the dot: its first token, or with blank space the last owner. */
  private owner(tokens: Token[], blankOwner: boolean): string {
    if (blankOwner) {
      if (!this.lastOwner) throw new RuleError('the first record must begin with its owner name');
      return this.lastOwner;
    }
    const text = tokens[0]!.text;
    if (text.length > MAX_OWNER_CHARS) throw new RuleError('the owner name is longer than a domain name may be (255 octets)');
    let owner = absoluteName(text, this.origin);
    // Cloudflare's exports name the SOA owner without the trailing dot and no $ORIGIN before it.
    if (!this.originSet && text.toLowerCase() === this.zone && isSoaLine(tokens, 1)) owner = `${this.zone}.`;
    this.lastOwner = owner;
    return owner;
  }

  /** The owner relative to the zone ('@' for the apex), refused outside it or when not a valid name. */
  private relativeName(owner: string): string {
    try {
      return normalizeRecordName(owner, this.zone);
    } catch (e) {
      if (!isInZone(fqdnText(owner), this.zone)) throw new RuleError(`name ${shortName(owner)} is outside the zone ${this.zone}`);
      throw new RuleError(`name ${shortName(owner)} ${(e as Error).message}`);
    }
  }

  private soa(line: number, name: string, rdata: Token[], ttl: number | undefined): void {
    if (name !== APEX) throw new RuleError('an SOA record must stand at the zone apex');
    const written = rdata.map((t) => t.text);
    if (this.out.soa) {
      // A zone transfer (dig AXFR) ends with the SOA it began with (RFC 5936 §2.2).
      if (written.join(' ') === this.soaText) {
        this.out.ignored.push({ line, name, record_type: 'SOA', reason: 'the closing SOA of a zone transfer' });
        return;
      }
      throw new RuleError(`a second SOA record (the first is on line ${this.out.soa.line})`);
    }
    this.soaText = written.join(' ');
    if (rdata.length !== 7) throw new RuleError('SOA: must have the form "mname rname serial refresh retry expire minimum"');
    const [mname, rname, ...numbers] = written;
    const serial = parseTtlText(numbers[0]!, 'SOA serial', 0xffffffff);
    const [refresh, retry, expire, minimum] = ['refresh', 'retry', 'expire', 'minimum'].map((w, k) => parseTtlText(numbers[k + 1]!, `SOA ${w}`));
    const effective = ttl ?? this.dollarTtl ?? this.lastTtl ?? minimum!;
    // RFC 1035 §5.1 with BIND's reading: with neither $TTL nor a TTL so far, later records take this one.
    if (this.dollarTtl === undefined && this.lastTtl === undefined) this.lastTtl = effective;
    this.out.soa = {
      mname: fqdnText(absoluteName(mname!, this.origin)),
      rname: fqdnText(absoluteName(rname!, this.origin)),
      serial,
      refresh: refresh!,
      retry: retry!,
      expire: expire!,
      minimum: minimum!,
      ttl: effective,
      line,
    };
  }
}
