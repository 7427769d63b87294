/**
 * Reads a master file (RFC 1035 §5, RFC 2308 §4 for $TTL, RFC 3597 §5 for TYPEnnn and
 * `\#`) into records of the registry's canonical content, as BIND, Knot, PowerDNS
 * (`pdnsutil list-zone`) and Cloudflare exports write them. Every problem is collected with
 * its line, so one answer can list them all. DNSSEC records, which exports of signed zones
 * hold and zonedeck makes itself, are reported as ignored, as is the apex NS set, which
 * belongs to the service.
 */
import { APEX, isInZone, normalizeRecordName } from '../domain-name';
import { Invalid, RuleError } from '../errors';
import { absoluteName } from '../rdata/fields';
import type { Token } from '../rdata/presentation';
import { RECORD_TYPE_BY_CODE, RECORD_TYPE_BY_NAME } from '../record-types';
import { generateEntries, TooManyRecords } from './generate';
import { ZoneLexer } from './lexer';
import { looksLikeTtl, parseTtlText } from './ttl-text';

export interface ZoneFileRecord {
  /** Relative to the zone, '@' for the apex. */
  name: string;
  record_type: string;
  ttl: number;
  /** Canonical content, as the API stores it. */
  content: string;
  line: number;
}

export interface ZoneFileSoa {
  /** Absolute, lower case, no trailing dot. */
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  ttl: number;
  line: number;
}

export interface ZoneFileIgnored {
  line: number;
  name: string;
  record_type: string;
  reason: string;
}

export interface ZoneFileError {
  line: number;
  message: string;
}

export interface ParsedZoneFile {
  records: ZoneFileRecord[];
  soa?: ZoneFileSoa;
  ignored: ZoneFileIgnored[];
  errors: ZoneFileError[];
}

export interface ParseOptions {
  /** TTL of records when the file gives none and has no $TTL (the zone's minimum_ttl). Default 3600. */
  defaultTtl?: number;
  /** Collecting stops after this many errors. Default 20. */
  maxErrors?: number;
  /** Keep apex NS records among the records instead of listing them as ignored. */
  keepApexNs?: boolean;
  /**
   * Reading stops with an error past this many records ($GENERATE makes many from one line, and is
   * counted before it makes any). The service passes MAX_RECORDS_PER_ZONE. Default 200,000.
   */
  maxRecords?: number;
}

/** Longest error message kept (a name quoted in it is cut): an error body stays small whatever the file holds. */
const MAX_MESSAGE = 240;
/** Longest logical line (an entry with its parentheses): rdata is at most 65,535 octets, written in hex twice that. */
const MAX_ENTRY_CHARS = 140_000;
/** Longest owner name as written: 255 octets, each possibly written as a four-character \DDD escape. */
const MAX_OWNER_CHARS = 1024;
/** Entries read between two yields of the chunked reader (about 10–20 ms of work). */
const CHUNK = 2000;

const clip = (message: string): string => (message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);

/** Made by zonedeck when it signs (RFC 4034, 5155, 7344, 8976): ignored, not refused. */
const DNSSEC_TYPES: Record<string, number> = { DNSKEY: 48, RRSIG: 46, NSEC: 47, NSEC3: 50, NSEC3PARAM: 51, CDS: 59, CDNSKEY: 60, ZONEMD: 63 };
const DNSSEC_BY_CODE = new Map(Object.entries(DNSSEC_TYPES).map(([n, c]) => [c, n]));

const CLASSES = new Set(['IN', 'CH', 'CHAOS', 'HS', 'HESIOD', 'CS', 'NONE', 'ANY']);
const isClass = (t: string): boolean => CLASSES.has(t.toUpperCase()) || /^CLASS[0-9]{1,5}$/i.test(t);
const isIn = (t: string): boolean => /^(IN|CLASS1)$/i.test(t);

/** A type token: its mnemonic, with TYPEnnn (RFC 3597 §5) mapped to the known name. */
function typeName(t: string): string {
  const upper = t.toUpperCase();
  const m = /^TYPE([0-9]{1,5})$/.exec(upper);
  if (!m) return upper;
  const code = Number(m[1]);
  return RECORD_TYPE_BY_CODE.get(code)?.type ?? DNSSEC_BY_CODE.get(code) ?? (code === 6 ? 'SOA' : upper);
}

/** Whether the tokens after the owner (at `i`) are [ttl] [class] SOA. */
function isSoaLine(tokens: readonly Token[], i: number): boolean {
  for (let k = i; k < Math.min(tokens.length, i + 3); k++) if (tokens[k]!.text.toUpperCase() === 'SOA') return true;
  return false;
}

const fqdnText = (name: string): string => (name === '.' ? '.' : name.replace(/\.$/, '').toLowerCase());

/** Reads a master file at once (the dashboard's preview, small files). See `parseZoneFileChunked` for big ones. */
export function parseZoneFile(text: string, origin: string, opts: ParseOptions = {}): ParsedZoneFile {
  const steps = parseSteps(text, origin, opts);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/**
 * Reads a master file in chunks, yielding to the event loop every few thousand entries, so that a
 * big import never holds the process for more than a few milliseconds at a time.
 */
export async function parseZoneFileChunked(text: string, origin: string, opts: ParseOptions = {}): Promise<ParsedZoneFile> {
  const steps = parseSteps(text, origin, opts);
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** The reader, pausing (a yield) every CHUNK entries and records. */
function* parseSteps(text: string, origin: string, opts: ParseOptions): Generator<void, ParsedZoneFile> {
  const zone = origin.replace(/\.$/, '').toLowerCase();
  const maxErrors = opts.maxErrors ?? 20;
  const maxRecords = opts.maxRecords ?? 200_000;
  let work = 0;
  const out: ParsedZoneFile = { records: [], ignored: [], errors: [] };
  const seen = new Map<string, number>();
  let current = zone; // $ORIGIN, absolute without the dot ('' for the root)
  let dollarTtl: number | undefined;
  let lastTtl: number | undefined;
  let lastOwner: string | undefined; // absolute, with the dot
  let originSet = false;
  let soaText = '';

  const fail = (line: number, message: string) => out.errors.push({ line, message: clip(message) });

  function directive(line: number, tokens: Token[]): void {
    const name = tokens[0]!.text.toUpperCase();
    const args = tokens.slice(1);
    switch (name) {
      case '$ORIGIN': {
        if (args.length !== 1) throw new RuleError('$ORIGIN must name one domain');
        const abs = absoluteName(args[0]!.text, current);
        current = abs === '.' ? '' : fqdnText(abs);
        originSet = true;
        return;
      }
      case '$TTL':
        if (args.length !== 1) throw new RuleError('$TTL must give one TTL');
        dollarTtl = parseTtlText(args[0]!.text);
        return;
      case '$INCLUDE':
        throw new RuleError('$INCLUDE is not supported: paste the included file in its place');
      default:
        throw new RuleError(`unknown directive ${tokens[0]!.text}`);
    }
  }

  function record(line: number, tokens: Token[], blankOwner: boolean): void {
    let i = 0;
    let owner: string;
    if (blankOwner) {
      if (!lastOwner) throw new RuleError('the first record must begin with its owner name');
      owner = lastOwner;
    } else {
      const text = tokens[i++]!.text;
      if (text.length > MAX_OWNER_CHARS) throw new RuleError('the owner name is longer than a domain name may be (255 octets)');
      owner = absoluteName(text, current);
      // Cloudflare's exports name the SOA owner without the trailing dot and no $ORIGIN before it.
      if (!originSet && text.toLowerCase() === zone && isSoaLine(tokens, i)) owner = `${zone}.`;
      lastOwner = owner;
    }
    let ttl: number | undefined;
    let cls: string | undefined;
    for (let k = 0; k < 2 && i < tokens.length; k++) {
      const t = tokens[i]!.text;
      if (ttl === undefined && looksLikeTtl(t)) ttl = parseTtlText(t);
      else if (cls === undefined && isClass(t)) cls = t;
      else break;
      i++;
    }
    if (i >= tokens.length) throw new RuleError('the record has no type');
    if (cls !== undefined && !isIn(cls)) throw new RuleError(`class ${cls.toUpperCase()} is not supported; only IN`);
    const type = typeName(tokens[i++]!.text);
    const rdata = tokens.slice(i);
    let name: string;
    try {
      name = normalizeRecordName(owner, zone);
    } catch (e) {
      if (!isInZone(fqdnText(owner), zone)) throw new RuleError(`name ${owner.length > 80 ? `${owner.slice(0, 60)}…` : owner} is outside the zone ${zone}`);
      throw new RuleError(`name ${owner.length > 80 ? `${owner.slice(0, 60)}…` : owner} ${(e as Error).message}`);
    }
    if (ttl !== undefined && dollarTtl === undefined) lastTtl = ttl;

    if (type === 'SOA') return soa(line, name, rdata, ttl);
    if (DNSSEC_TYPES[type] !== undefined) {
      out.ignored.push({ line, name, record_type: type, reason: 'DNSSEC records are made by zonedeck when the zone is signed' });
      return;
    }
    const rt = RECORD_TYPE_BY_NAME.get(type);
    if (!rt) throw new RuleError(`record type ${type} is not supported`);
    const content = rt.fromTokens(rdata, current);
    const effective = ttl ?? dollarTtl ?? lastTtl ?? opts.defaultTtl ?? 3600;
    if (name === APEX && type === 'NS' && !opts.keepApexNs) {
      out.ignored.push({ line, name, record_type: type, reason: 'the apex NS set is managed by zonedeck' });
      return;
    }
    const key = `${name} ${type} ${content}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      out.ignored.push({ line, name, record_type: type, reason: `the same record as on line ${earlier}` });
      return;
    }
    seen.set(key, line);
    if (out.records.length >= maxRecords) throw new TooManyRecords(`the file holds more than ${maxRecords} records`);
    out.records.push({ name, record_type: type, ttl: effective, content, line });
  }

  function soa(line: number, name: string, rdata: Token[], ttl: number | undefined): void {
    if (name !== APEX) throw new RuleError('an SOA record must stand at the zone apex');
    if (out.soa) {
      // A zone transfer (dig AXFR) ends with the SOA it began with (RFC 5936 §2.2).
      if (rdata.map((t) => t.text).join(' ') === soaText) {
        out.ignored.push({ line, name, record_type: 'SOA', reason: 'the closing SOA of a zone transfer' });
        return;
      }
      throw new RuleError(`a second SOA record (the first is on line ${out.soa.line})`);
    }
    soaText = rdata.map((t) => t.text).join(' ');
    if (rdata.length !== 7) throw new RuleError('SOA: must have the form "mname rname serial refresh retry expire minimum"');
    const [mname, rname, ...numbers] = rdata.map((t) => t.text);
    const serial = parseTtlText(numbers[0]!, 'SOA serial', 0xffffffff);
    const [refresh, retry, expire, minimum] = ['refresh', 'retry', 'expire', 'minimum'].map((w, k) => parseTtlText(numbers[k + 1]!, `SOA ${w}`));
    const effective = ttl ?? dollarTtl ?? lastTtl ?? minimum!;
    // RFC 1035 §5.1 with BIND's reading: with neither $TTL nor a TTL so far, later records take this one.
    if (dollarTtl === undefined && lastTtl === undefined) lastTtl = effective;
    out.soa = {
      mname: fqdnText(absoluteName(mname!, current)),
      rname: fqdnText(absoluteName(rname!, current)),
      serial,
      refresh: refresh!,
      retry: retry!,
      expire: expire!,
      minimum: minimum!,
      ttl: effective,
      line,
    };
  }

  // A first pass counts the records the file stands for ($GENERATE ranges counted, not expanded):
  // a file past the limit is refused at the line that crosses it, before one record is read.
  const counter = new ZoneLexer(text);
  let total = 0;
  for (let entry = counter.next(); entry; entry = counter.next()) {
    if (++work % (CHUNK * 10) === 0) yield;
    const first = entry.blankOwner ? '' : (entry.tokens[0]?.text.toUpperCase() ?? '');
    if (entry.error || (first.startsWith('$') && first !== '$GENERATE')) continue;
    const range = first === '$GENERATE' ? /^([0-9]{1,10})-([0-9]{1,10})(?:\/([0-9]{1,10}))?$/.exec(entry.tokens[1]?.text ?? '') : null;
    total += range ? Math.max(0, Math.floor((Number(range[2]) - Number(range[1])) / Math.max(1, Number(range[3] ?? 1))) + 1) : 1;
    if (total > maxRecords) {
      fail(entry.line, `the file holds more than ${maxRecords} records${range ? ' (counting the records of its $GENERATE lines)' : ''}; a zone holds at most MAX_RECORDS_PER_ZONE`);
      return out;
    }
  }
  work = 0;

  const lexer = new ZoneLexer(text);
  for (let entry = lexer.next(); entry; entry = lexer.next()) {
    if (out.errors.length >= maxErrors) {
      fail(entry.line, `stopped after ${maxErrors} errors`);
      break;
    }
    if (entry.error) {
      fail(entry.line, entry.error);
      continue;
    }
    if (++work % CHUNK === 0) yield;
    let chars = 0;
    for (const t of entry.tokens) chars += t.text.length;
    if (chars > MAX_ENTRY_CHARS) {
      fail(entry.line, `the entry is longer than ${MAX_ENTRY_CHARS} characters (rdata is at most 65,535 octets)`);
      continue;
    }
    try {
      if (!entry.blankOwner && entry.tokens[0]!.text.toUpperCase() === '$GENERATE') {
        // Its records are read as they are made, with pauses like any other entries.
        for (const gen of generateEntries(entry.tokens.slice(1), maxRecords - out.records.length)) {
          record(entry.line, gen, false);
          if (++work % CHUNK === 0) yield;
        }
      } else if (!entry.blankOwner && entry.tokens[0]!.text.startsWith('$')) directive(entry.line, entry.tokens);
      else record(entry.line, entry.tokens, entry.blankOwner);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      fail(entry.line, e.message);
      if (e instanceof TooManyRecords) break;
    }
  }
  return out;
}

/** The errors as the API answers them: 400 with `fields` keyed `line <n>`. */
export function zoneFileInvalid(errors: readonly ZoneFileError[]): Invalid {
  const fields: Record<string, string> = {};
  for (const e of errors) {
    const key = `line ${e.line}`;
    fields[key] = fields[key] ? `${fields[key]}; ${e.message}` : e.message;
  }
  const n = errors.length;
  return new Invalid(fields, `the zone file has ${n === 1 ? 'an error' : `${n} errors`}: ${errors[0] ? `line ${errors[0].line}: ${errors[0].message}` : ''}`);
}

/** Parses and throws Invalid (fields keyed `line <n>`) when the file has any error. */
export function parseZoneFileOrThrow(text: string, origin: string, opts?: ParseOptions): Omit<ParsedZoneFile, 'errors'> {
  const parsed = parseZoneFile(text, origin, opts);
  if (parsed.errors.length > 0) throw zoneFileInvalid(parsed.errors);
  return parsed;
}
