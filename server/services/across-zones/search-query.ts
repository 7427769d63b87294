/**
 * A search across zones as the store runs it: a full name, a type and a content (exact, prefix or
 * substring; an exact content in its type's canonical spelling; an A/AAAA content may be a
 * network in CIDR notation, narrowed by its whole octets and tested address by address), in the
 * zones asked for and the credential's scope admits.
 */
import { MAX_NAME_LENGTH, normalizeZoneName } from '../../core/domain-name';
import { Invalid, RuleError } from '../../core/errors';
import { parseIpRange, type IpRange } from '../../core/ip-range';
import { recordType } from '../../core/record-types';
import type { RecordSearch, TextMatch } from '../../store/types/across-zones';
import type { Asker } from './asker';

export interface SearchInput {
  name?: string;
  type?: string;
  content?: string;
  match?: TextMatch;
  /** One zone, or (bulk) several. */
  zones?: readonly string[];
}

export interface ParsedSearch {
  search: RecordSearch;
  /** An A/AAAA content search by network. */
  cidr?: IpRange;
}

/** The record type named, canonical (`aaaa` is AAAA); 400 naming `type` for an unknown one. */
function searchedType(raw: string): string {
  try {
    return recordType(raw.trim().toUpperCase()).type;
  } catch (e) {
    if (e instanceof RuleError) throw Invalid.field('type', e.message);
    throw e;
  }
}

/** A content search by network: the family's type, and the octets the prefix covers whole to narrow the scan. */
function networkSearch(search: RecordSearch, content: string, type: string | undefined): IpRange {
  let cidr: IpRange;
  try {
    cidr = parseIpRange(content);
  } catch (e) {
    if (e instanceof RuleError) throw Invalid.field('content', e.message);
    throw e;
  }
  const family = cidr.ipv4 ? 'A' : 'AAAA';
  if (type && type !== family) throw Invalid.field('type', `a network in content matches ${family} records only`);
  search.types = [family];
  // The octets the prefix covers whole narrow the scan; the address test does the rest.
  const whole = cidr.ipv4 ? cidr.address.split('.').slice(0, Math.floor(cidr.cidr / 8)) : [];
  if (whole.length === 4) search.content = { term: cidr.address, match: 'exact' };
  else if (whole.length > 0) search.contentPrefix = `${whole.join('.')}.`;
  return cidr;
}

/** The content as stored, for an exact search: canonical for its type (an address in its one spelling). */
function storedSpelling(content: string, type: string | undefined): string {
  const looksLikeAddress = /^[0-9a-fA-F.:]+$/.test(content) && (content.includes(':') || /^[0-9.]+$/.test(content));
  const types = type ? [type] : looksLikeAddress ? [content.includes(':') ? 'AAAA' : 'A'] : [];
  let term = content;
  for (const t of types) {
    try {
      term = recordType(t).normalize(content);
    } catch {
      /* left as given: it matches nothing stored, which is the right answer */
    }
  }
  return term;
}

/** The zones to search: those named (normalized; 400 naming the bad one), within the credential's scope. */
function searchedZones(asker: Asker, given: readonly string[]): readonly string[] | undefined {
  const zones: string[] = [];
  for (const [i, z] of given.entries()) {
    try {
      zones.push(normalizeZoneName(z));
    } catch (e) {
      if (e instanceof RuleError) throw Invalid.field(given.length === 1 ? 'zone' : `zones.${i}`, e.message);
      throw e;
    }
  }
  // A token scoped to zones searches only those.
  const allowed = asker.scope?.zones?.length ? asker.scope.zones : undefined;
  if (zones.length > 0) return allowed ? zones.filter((z) => allowed.includes(z)) : zones;
  return allowed;
}

export function parseSearch(asker: Asker, q: SearchInput): ParsedSearch {
  const match = q.match ?? 'contains';
  const search: RecordSearch = {};
  if (q.name !== undefined && q.name.trim() !== '') {
    const term = q.name.trim().toLowerCase().replace(/\.$/, '');
    if (term.length > MAX_NAME_LENGTH) throw Invalid.field('name', `must be at most ${MAX_NAME_LENGTH} characters`);
    search.name = { term, match };
  }
  const type = q.type !== undefined && q.type.trim() !== '' ? searchedType(q.type) : undefined;
  if (type) search.types = [type];
  let cidr: IpRange | undefined;
  const content = q.content?.trim();
  if (content) {
    if (content.length > 4096) throw Invalid.field('content', 'must be at most 4096 characters');
    if (content.includes('/') && /^[0-9a-fA-F.:]+\/[0-9]+$/.test(content)) cidr = networkSearch(search, content, type);
    else search.content = { term: match === 'exact' ? storedSpelling(content, type) : content, match };
  }
  const zones = searchedZones(asker, q.zones ?? []);
  if (zones) search.zones = zones;
  return { search, cidr };
}
