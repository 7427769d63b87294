/**
 * PowerDNS RRset changes (PATCH …/zones/:zone_id) as zonedeck's atomic RRset changes
 * (services/rrsets.ts): REPLACE and DELETE as they are, EXTEND as ADD, PRUNE as REMOVE, names
 * and content turned from PowerDNS's form into zonedeck's. The SOA and the apex NS set are
 * zonedeck's: clients (external-dns, octoDNS) send them back as they read them, which is no
 * change and is dropped; a real change is refused. Errors keep zonedeck's field names, at the
 * positions the client sent (`rrsets.2.records.0`), with the RRset they belong to.
 */
import { APEX, normalizeRecordName } from '../core/domain-name';
import { RuleError, ZonedeckError } from '../core/errors';
import { RECORD_TYPE_BY_NAME } from '../core/record-types';
import type { Changetype, RRsetChange } from '../services/rrsets';
import type { DomainRow, RecordRow, Store } from '../store/types';
import { isRestricted, recordRefusal } from '../core/scope';
import type { WriteOptions } from '../services/change-sets';
import { contentFromPdns } from './content';
import { PdnsError } from './errors';
import { asAbsolute } from './names';
import type { RRsetInput } from './schemas';
import { soaContent, type SoaIdentity } from './zone-view';

const CHANGETYPES: Record<string, Changetype> = { REPLACE: 'REPLACE', DELETE: 'DELETE', EXTEND: 'ADD', PRUNE: 'REMOVE' };

/** New comments of one RRset (empty: none), as PowerDNS keeps them beside the records. */
export interface CommentChange {
  name: string;
  record_type: string;
  comments: Array<{ content: string; account: string; modified_at: number }>;
}

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
 * they are is dropped; anything else about them is refused (422), as is a disabled record.
 */
export function translate(list: readonly RRsetInput[], managed: Managed, position: (i: number) => number = (i) => i): Translated {
  const { zone } = managed;
  const errors: string[] = [];
  const out: Translated = { changes: [], comments: [], from: [], labels: new Map() };
  const seen = new Set<string>();
  list.forEach((rs, k) => {
    const i = position(k);
    const at = `rrsets.${i}`;
    const type = rs.type.trim().toUpperCase();
    const label = `RRset ${asAbsolute(rs.name)} IN ${type}`;
    out.labels.set(i, label);
    const fail = (field: string, message: string) => void errors.push(`${label}: ${field}: ${message}`);
    const changetype = CHANGETYPES[(rs.changetype ?? '').trim().toUpperCase()];
    if (!changetype) return fail(`${at}.changetype`, `changetype ${JSON.stringify(rs.changetype ?? null)} is not one of REPLACE, DELETE, EXTEND, PRUNE`);
    let name: string;
    try {
      name = normalizeRecordName(asAbsolute(rs.name), zone.name);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      return fail(`${at}.name`, e.message);
    }
    const key = `${name} ${type} ${changetype}`;
    if (seen.has(key)) return fail(at, `the same RRset appears twice with changetype ${rs.changetype!.toUpperCase()}`);
    seen.add(key);

    const records = changetype === 'DELETE' ? [] : (rs.records ?? []);
    // PowerDNS: REPLACE with `comments` sets the RRset's comments; DELETE removes them with the records.
    const now = Math.floor(Date.now() / 1000);
    if (changetype === 'DELETE' || (changetype === 'REPLACE' && rs.comments !== undefined)) {
      out.comments.push({ name, record_type: type, comments: changetype === 'DELETE' ? [] : rs.comments!.map((c) => ({ content: c.content, account: c.account ?? '', modified_at: c.modified_at ?? now })) });
    }
    if (changetype === 'REPLACE' && rs.records === undefined) {
      if (rs.comments !== undefined) return;
      return fail(`${at}.records`, 'no change: give the records (an empty list deletes the RRset)');
    }
    if ((changetype === 'ADD' || changetype === 'REMOVE') && records.length === 0) {
      return fail(`${at}.records`, `no record given for ${rs.changetype!.toUpperCase()}`);
    }
    records.forEach((r, j) => {
      if (r.disabled) fail(`${at}.records.${j}.disabled`, 'zonedeck has no disabled records: send disabled false (or leave it out)');
    });

    if (type === 'SOA' && name !== APEX) return fail(`${at}.type`, 'an SOA record stands only at the zone apex, where zonedeck manages it');
    // dnscontrol ≥ 4.16 deletes the SOA when its config has none, as its PowerDNS docs allow: the
    // SOA is zonedeck's, so that DELETE changes nothing and is accepted (issue 26).
    if (type === 'SOA' && changetype === 'DELETE') return;
    if (type === 'SOA' || (name === APEX && type === 'NS')) {
      const refused = managedChange(type, changetype, records, rs.ttl, managed);
      return refused ? fail(at, refused) : undefined;
    }

    const def = RECORD_TYPE_BY_NAME.get(type);
    const contents = records.map((r, j) => {
      if (!def) return r.content; // an unknown type: the service names the type field
      try {
        return contentFromPdns(def, r.content);
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
        fail(`${at}.records.${j}`, e.message);
        return undefined;
      }
    });
    if (changetype === 'REPLACE') {
      const dup = contents.findIndex((c, j) => c !== undefined && contents.indexOf(c) !== j);
      if (dup >= 0) fail(`${at}.records.${dup}`, `the same record twice: ${records[dup]!.content}`);
    }
    out.changes.push({
      name,
      record_type: type,
      ...(rs.ttl === undefined || changetype === 'DELETE' ? {} : { ttl: String(rs.ttl) }),
      changetype,
      records: contents.map((c) => c ?? ''),
    });
    out.from.push(i);
  });
  if (errors.length > 0) throw new PdnsError(422, errors.join('; '));
  return out;
}

/** Drops the comment changes that change nothing (a client sends back what it read, `comments: []` on the SOA too). */
async function effective(store: Store, zone: DomainRow, t: Translated): Promise<CommentChange[]> {
  if (t.comments.length === 0) return [];
  const stored = await store.rrsetComments.byDomain(zone.id);
  const key = (list: ReadonlyArray<{ content: string; account: string }>) => JSON.stringify(list.map((c) => [c.content, c.account]));
  return t.comments.filter((c) => key(stored.filter((s) => s.name === c.name && s.record_type === c.record_type)) !== key(c.comments));
}

/**
 * A credential's scope covers comments as it covers the RRsets they belong to (DESIGN.md §17):
 * 403 for a comment change outside it. Keeps only the changes that change something.
 */
export async function checkCommentScope(store: Store, opts: WriteOptions, zone: DomainRow, t: Translated): Promise<void> {
  t.comments = await effective(store, zone, t);
  const scope = opts.actor.scope;
  if (!scope || !isRestricted(scope)) return;
  for (const c of t.comments) {
    const why = recordRefusal(scope, zone.name, c.name, c.record_type);
    if (why) throw new PdnsError(403, why);
  }
}

/** Writes the comment changes of a PATCH once its records are applied. */
export async function writeComments(store: Store, zone: DomainRow, t: Translated): Promise<void> {
  for (const c of t.comments) await store.rrsetComments.replace(zone.id, c.name, c.record_type, c.comments);
}

/**
 * An error of services.rrsets.patch in the client's terms: its field keys point at the
 * positions of the translated list; they are moved back to the client's and given the RRset.
 */
export function clientError(err: unknown, t: Translated): unknown {
  if (!(err instanceof ZonedeckError) || (err.status !== 400 && err.status !== 409)) return err;
  const parts: string[] = [];
  for (const [field, message] of Object.entries(err.fields ?? {})) {
    const m = /^rrsets\.([0-9]+)(.*)$/.exec(field);
    const i = m ? t.from[Number(m[1])] : undefined;
    if (i === undefined) {
      parts.push(`${field}: ${message}`);
      continue;
    }
    parts.push(`${t.labels.get(i)}: rrsets.${i}${m![2]}: ${message}`);
  }
  return new PdnsError(422, parts.length > 0 ? parts.join('; ') : err.message);
}
