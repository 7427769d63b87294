/**
 * PowerDNS RRset changes (PATCH …/zones/:zone_id) as zonedeck's atomic RRset changes
 * (services/rrsets.ts): REPLACE and DELETE as they are, EXTEND as ADD, PRUNE as REMOVE, names
 * and content turned from PowerDNS's form into zonedeck's. The SOA and the apex NS set are
 * zonedeck's: clients (external-dns, octoDNS) send them back as they read them, which is no
 * change and is dropped; a real change is refused. Errors keep zonedeck's field names, at the
 * positions the client sent (`rrsets.2.records.0`), with the RRset they belong to.
 */
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { RuleError, ZonedeckError } from '../../core/errors';
import { RECORD_TYPE_BY_NAME } from '../../core/record-types';
import type { Changetype, RRsetChange } from '../../services/changes/rrsets';
import type { DomainRow, ReadStore, RecordRow } from '../../store/types';
import type { CommentChange, ZoneAttributesService } from '../../services/zones/zone-attributes';
import { isRestricted, recordRefusal } from '../../core/scope';
import type { WriteOptions } from '../../services/changes/change-sets';
import { contentFromPdns } from '../content';
import { PdnsError } from '../errors';
import { asAbsolute } from '../names';
import { contentWords, hostnameWords, INVALID_TYPES, isInZone, nameWords, ruleWords } from '../powerdns-words';
import type { RRsetInput } from '../schemas';
import { soaContent, type SoaIdentity } from './zone-view';

const CHANGETYPES: Record<string, Changetype> = { REPLACE: 'REPLACE', DELETE: 'DELETE', EXTEND: 'ADD', PRUNE: 'REMOVE' };

/** Types of one record per name (PowerDNS's check-zone.cc `onlyOneEntryTypes`). */
const SINGLE = new Set(['CNAME', 'DNAME', 'SOA']);

/** Types PowerDNS knows that zonedeck makes itself or does not serve: the service names them, they are not "unknown". */
const MANAGED_OR_ELSEWHERE = new Set([
  'SOA',
  'DNSKEY',
  'RRSIG',
  'NSEC',
  'NSEC3',
  'NSEC3PARAM',
  'CDS',
  'CDNSKEY',
  'ZONEMD',
  'LUA',
  'SPF',
  'AFSDB',
  'APL',
  'CSYNC',
  'DHCID',
  'DLV',
  'EUI48',
  'EUI64',
  'IPSECKEY',
  'KEY',
  'KX',
  'L32',
  'L64',
  'LP',
  'MB',
  'MG',
  'MINFO',
  'MR',
  'NID',
  'RKEY',
  'RP',
  'SIG',
  'TKEY',
  'WALLET',
  'RESINFO',
]);

/** New comments of one RRset (empty: none), as PowerDNS keeps them beside the records. */
export type { CommentChange };

/** zonedeck's changes, and for each the position in the client's list it came from. */
export interface Translated {
  changes: RRsetChange[];
  /** Comment changes: REPLACE with `comments` sets them, DELETE removes them (PowerDNS's PATCH). */
  comments: CommentChange[];
  from: number[];
  /** "RRset www.example.com. IN A" by position in the client's list. */
  labels: Map<number, string>;
}

/** What the zone holds of what zonedeck manages: the apex NS set (as stored) and the SOA's fields. */
export interface Managed {
  zone: DomainRow;
  apexNs: readonly RecordRow[];
  identity: SoaIdentity;
  /** The stored TTL of the RRsets an EXTEND with a `ttl` adds to (`name type`), to keep one TTL per RRset. */
  ttls?: ReadonlyMap<string, number>;
}

/** SOA content without its serial, which zonedeck sets: the part a client can send back unchanged. */
function soaKey(content: string): string | null {
  const f = content.trim().split(/\s+/);
  if (f.length !== 7) return null;
  const name = (n: string) => n.toLowerCase().replace(/\.$/, '');
  return [name(f[0]!), name(f[1]!), ...f.slice(3).map((n) => (/^[0-9]+$/.test(n) ? String(Number(n)) : n))].join(' ');
}

/** The set a change leaves, from the set there is (contents as keys). */
function result(changetype: Changetype, current: readonly string[], given: readonly string[]): Set<string> {
  if (changetype === 'REPLACE') return new Set(given);
  if (changetype === 'DELETE') return new Set();
  if (changetype === 'ADD') return new Set([...current, ...given]);
  return new Set(current.filter((c) => !given.includes(c)));
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/**
 * Why a change to the SOA or the apex NS set is refused, or null when it leaves them as they
 * are (the serial of an SOA aside: it is zonedeck's, and a client may have read an older one).
 */
function managedChange(type: string, changetype: Changetype, records: readonly { content: string }[], ttl: number | undefined, { zone, apexNs, identity }: Managed): string | null {
  const soa = type === 'SOA';
  const keyOf = (c: string) => (soa ? soaKey(c) : c.trim().toLowerCase().replace(/\.$/, ''));
  const current = (soa ? [soaContent(zone, identity)] : apexNs.map((r) => r.content)).map((c) => keyOf(c)!);
  const given = records.map((r) => keyOf(r.content) ?? `unreadable ${r.content}`);
  const ttlBefore = soa ? zone.minimum_ttl : (apexNs[0]?.ttl ?? 0);
  const unchanged = sameSet(result(changetype, current, given), new Set(current)) && (ttl === undefined || changetype !== 'REPLACE' || ttl === ttlBefore);
  if (unchanged) return null;
  return soa
    ? "the SOA record is managed by zonedeck and can only be sent back unchanged; its timers are the zone's refresh_interval, retry_interval, expire_interval and minimum_ttl (PUT /api/v1/domains/<zone>)"
    : 'the NS set at the apex is managed by zonedeck and can only be sent back unchanged; it comes from NAMESERVERS';
}

/**
 * Translates the client's list. A change to the SOA or the apex NS set that leaves them as
 * they are is dropped; anything else about them is refused (422). A record may be disabled
 * (kept, listed, never served), as PowerDNS-Admin's Disable toggle sends it.
 */
export function translate(list: readonly RRsetInput[], managed: Managed, position: (i: number) => number = (i) => i): Translated {
  const { zone } = managed;
  const errors: string[] = [];
  const out: Translated = { changes: [], comments: [], from: [], labels: new Map() };
  const seen = new Set<string>();
  /** Each RRset's TTL as the changes so far leave it (null: none there). */
  const ttl = new Map<string, number | null>();
  list.forEach((rs, k) => {
    const i = position(k);
    const at = `rrsets.${i}`;
    const type = rs.type.trim().toUpperCase();
    const label = `RRset ${asAbsolute(rs.name)} IN ${type}`;
    out.labels.set(i, label);
    // PowerDNS's words (server/pdns/powerdns-words.ts) first, then zonedeck's field and reason.
    const fail = (field: string, message: string, words?: string | null) => void errors.push(`${label}: ${words ? `${words}: ` : ''}${field}: ${message}`);
    const given = (rs.changetype ?? '').trim().toUpperCase();
    const changetype = CHANGETYPES[given];
    if (!changetype) return fail(`${at}.changetype`, 'one of REPLACE, DELETE, EXTEND, PRUNE', `Changetype '${given.slice(0, 32)}' is not a valid value`);
    const absolute = asAbsolute(rs.name);
    const badName = absolute === APEX ? null : nameWords(absolute);
    if (badName) return fail(`${at}.name`, 'a name has letters, digits, hyphens, underscores and dots (a leading "*." for a wildcard)', badName);
    // PowerDNS takes a DELETE of a name outside the zone, "so users can fix their wrong, old data": zonedeck has none there.
    if (changetype === 'DELETE' && !isInZone(absolute, zone.name) && absolute !== APEX) return;
    let name: string;
    try {
      name = normalizeRecordName(absolute, zone.name);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      return fail(`${at}.name`, e.message, isInZone(absolute, zone.name) ? null : 'Name is out of zone');
    }
    if (INVALID_TYPES.has(type)) return fail(`${at}.type`, `${type} is a meta type of the DNS message, not data of a zone`, 'invalid type given');
    if (!RECORD_TYPE_BY_NAME.has(type) && !MANAGED_OR_ELSEWHERE.has(type) && !/^TYPE[0-9]+$/.test(type)) {
      return fail(`${at}.type`, `zonedeck serves ${[...RECORD_TYPE_BY_NAME.keys()].join(', ')}`, 'unknown type given');
    }
    // As PowerDNS: one DELETE and one REPLACE of an RRset per PATCH; EXTEND and PRUNE may come several times.
    const key = `${name} ${type} ${changetype}`;
    if ((changetype === 'DELETE' || changetype === 'REPLACE') && seen.has(key)) {
      return fail(at, 'an RRset is deleted or replaced once in one PATCH', `Duplicate RRset ${absolute} IN ${type} with changetype: ${given}`);
    }
    seen.add(key);

    const records = changetype === 'DELETE' ? [] : (rs.records ?? []);
    // PowerDNS: REPLACE with `comments` sets the RRset's comments; DELETE removes them with the records.
    const now = Math.floor(Date.now() / 1000);
    if (changetype === 'DELETE' || (changetype === 'REPLACE' && rs.comments !== undefined)) {
      out.comments.push({
        name,
        record_type: type,
        comments: changetype === 'DELETE' ? [] : rs.comments!.map((c) => ({ content: c.content, account: c.account ?? '', modified_at: c.modified_at ?? now })),
      });
    }
    if (changetype === 'REPLACE' && rs.records === undefined) {
      if (rs.comments !== undefined) return;
      return fail(`${at}.records`, 'no change: give the records (an empty list deletes the RRset)');
    }
    if ((changetype === 'ADD' || changetype === 'REMOVE') && records.length === 0) {
      return fail(`${at}.records`, `no record given for ${given}`, 'No record provided for PRUNE or EXTEND operation');
    }
    // Checked on the text as sent, before any rule of the zone, as PowerDNS checks a new RRset.
    records.forEach((r, j) => {
      const words = contentWords(r.content);
      if (words) fail(`${at}.records.${j}`, 'record content is master-file rdata on one line', words);
    });
    if (SINGLE.has(type) && records.length > 1) fail(at, `one ${type} record per name (RFC 2181 §10.1, RFC 6672 §2.4)`, 'only one such record allowed');
    // The same text twice (case matters: TXT "A" and "a" are two records); two spellings of one record are caught once read, below.
    const texts = records.map((r) => r.content.trim());
    const twice = texts.findIndex((c, j) => texts.indexOf(c) !== j);
    if (changetype === 'REPLACE' && twice >= 0) fail(`${at}.records.${twice}`, 'the same record twice', `duplicate record with content "${records[twice]!.content.slice(0, 255)}"`);
    if (type === 'SOA' || (name === APEX && type === 'NS')) {
      records.forEach((r, j) => {
        if (r.disabled) fail(`${at}.records.${j}.disabled`, `the ${type === 'SOA' ? 'SOA' : 'NS set at the apex'} is managed by zonedeck and cannot be disabled`);
      });
    }

    if (type === 'SOA' && name !== APEX) return fail(`${at}.type`, 'an SOA record stands only at the zone apex, where zonedeck manages it', 'is only allowed at apex');
    // dnscontrol ≥ 4.16 deletes the SOA when its config has none, as its PowerDNS docs allow: the
    // SOA is zonedeck's, so that DELETE changes nothing and is accepted.
    if (type === 'SOA' && changetype === 'DELETE') return;
    if (type === 'SOA' || (name === APEX && type === 'NS')) {
      const refused = managedChange(type, changetype, records, rs.ttl, managed);
      return refused ? fail(at, refused) : undefined;
    }

    const def = RECORD_TYPE_BY_NAME.get(type);
    const contents = records.map((r, j) => {
      if (!def) return r.content; // an unknown type: the service names the type field
      if (contentWords(r.content)) return undefined;
      try {
        return contentFromPdns(def, r.content);
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
        fail(`${at}.records.${j}`, e.message, hostnameWords(type, r.content, e.message));
        return undefined;
      }
    });
    if (changetype === 'REPLACE' && twice < 0) {
      // The same record in two spellings (`2001:DB8::1`, `2001:db8::1`) is the same record.
      const dup = contents.findIndex((c, j) => c !== undefined && contents.indexOf(c) !== j);
      if (dup >= 0) fail(`${at}.records.${dup}`, `the same record twice: ${records[dup]!.content}`, `duplicate record with content "${records[dup]!.content.slice(0, 255)}"`);
    }
    // RFC 2181 §5.2: one TTL per RRset. An EXTEND with another TTL would change the other records' too: PowerDNS refuses it.
    const rrset = `${name} ${type}`;
    const before = ttl.has(rrset) ? ttl.get(rrset) : managed.ttls?.get(rrset);
    if (changetype === 'ADD' && rs.ttl !== undefined && before != null && before !== rs.ttl) {
      fail(`${at}.ttl`, `the records there have TTL ${before}: send that TTL, or REPLACE the RRset`, 'uses a different TTL value than the remainder of the RRset');
    }
    if (changetype === 'DELETE' || (changetype === 'REPLACE' && records.length === 0)) ttl.set(rrset, null);
    else if (changetype !== 'REMOVE') ttl.set(rrset, rs.ttl ?? before ?? null);
    out.changes.push({
      name,
      record_type: type,
      ...(rs.ttl === undefined || changetype === 'DELETE' ? {} : { ttl: String(rs.ttl) }),
      changetype,
      records: contents.map((c) => c ?? ''),
      ...(records.some((r) => r.disabled) ? { disabled: records.map((r) => r.disabled === true) } : {}),
    });
    out.from.push(i);
  });
  if (errors.length > 0) throw new PdnsError(422, errors.join('; '));
  return out;
}

/** Drops the comment changes that change nothing (a client sends back what it read, `comments: []` on the SOA too). */
async function effective(store: ReadStore, zone: DomainRow, t: Translated): Promise<CommentChange[]> {
  if (t.comments.length === 0) return [];
  const stored = await store.rrsetComments.byDomain(zone.id);
  const key = (list: ReadonlyArray<{ content: string; account: string }>) => JSON.stringify(list.map((c) => [c.content, c.account]));
  return t.comments.filter((c) => key(stored.filter((s) => s.name === c.name && s.record_type === c.record_type)) !== key(c.comments));
}

/**
 * A credential's scope covers comments as it covers the RRsets they belong to:
 * 403 for a comment change outside it. Keeps only the changes that change something.
 */
export async function checkCommentScope(store: ReadStore, opts: WriteOptions, zone: DomainRow, t: Translated): Promise<void> {
  t.comments = await effective(store, zone, t);
  const scope = opts.actor.scope;
  if (!scope || !isRestricted(scope)) return;
  for (const c of t.comments) {
    const why = recordRefusal(scope, zone.name, c.name, c.record_type);
    if (why) throw new PdnsError(403, why);
  }
}

/** Writes the comment changes of a PATCH once its records are applied. */
export function writeComments(attributes: ZoneAttributesService, zone: DomainRow, t: Translated): Promise<void> {
  return attributes.replaceComments(zone, t.comments);
}

/**
 * An error of services.rrsets.patch in the client's terms: its field keys point at the
 * positions of the translated list; they are moved back to the client's and given the RRset.
 */
export function clientError(err: unknown, t: Translated, replacingAll = false): unknown {
  if (!(err instanceof ZonedeckError) || (err.status !== 400 && err.status !== 409)) return err;
  const parts: string[] = [];
  for (const [field, message] of Object.entries(err.fields ?? {})) {
    const m = /^rrsets\.([0-9]+)(.*)$/.exec(field);
    const i = m ? t.from[Number(m[1])] : undefined;
    if (i === undefined) {
      parts.push(`${field}: ${message}`);
      continue;
    }
    const words = ruleWords(message, replacingAll);
    parts.push(`${t.labels.get(i)}: ${words ? `${words}: ` : ''}rrsets.${i}${m![2]}: ${message}`);
  }
  return new PdnsError(422, parts.length > 0 ? parts.join('; ') : err.message);
}
