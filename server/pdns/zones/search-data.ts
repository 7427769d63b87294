/**
 * `GET …/search-data?q=&max=&object_type=` (doc.powerdns.com/authoritative/http-api/search.html,
 * pdns/ws-auth.cc `apiServerSearchData`): the zones, records and comments whose name or content
 * matches `q` (`*` and `?` wildcards, any case), at most `max` of each kind (100 unless given, at
 * most MAX_SEARCH_RESULTS), zones first. Only the zones of the token's user that its scope
 * admits are searched, and of them only the records and comments its `names` and `types` admit.
 *
 * Names are matched as PowerDNS stores them (absolute, without the trailing dot) and with it;
 * content as PowerDNS prints it and with the trailing dots of its names left out, as PowerDNS
 * stores it. The records are read a page at a time and matched as they come, so memory holds one
 * page and the answer, whatever the zones' sizes; the scan stops once `max` records are found.
 */
import { Hono, type Context } from 'hono';
import { APEX, toFqdn } from '../../core/domain-name';
import { allowsName, allowsType, type Scope } from '../../core/scope';
import type { Services } from '../../services';
import type { DomainRow } from '../../store/types';
import type { PdnsEnv } from '../auth';
import { contentToPdns } from '../content';
import { unprocessable } from '../errors';
import { globMatcher } from '../glob';
import { absoluteName, dotted, zoneId } from '../names';
import { soaContent, type SoaIdentity } from './zone-view';

/** PowerDNS's default `max`. */
const DEFAULT_MAX = 100;
/** The most results of one kind an answer holds: a larger `max` is read as this (PowerDNS has no bound). */
export const MAX_SEARCH_RESULTS = 10_000;
/** A pattern longer than any name (253) has no use, and bounds the work of each match. */
const MAX_PATTERN = 255;
/** Records read per query of the scan. */
const PAGE = 2000;

const OBJECT_TYPES = ['all', 'zone', 'record', 'comment'] as const;
type ObjectType = (typeof OBJECT_TYPES)[number];

interface Search {
  q: string;
  max: number;
  objectType: ObjectType;
}

/** The query parameters, checked as PowerDNS checks them (its texts), each problem a 422 naming the parameter. */
function searchOf(c: Context): Search {
  const q = c.req.query('q') ?? '';
  if (q === '') throw unprocessable("Query q can't be blank");
  if (q.length > MAX_PATTERN) throw unprocessable(`q: must be at most ${MAX_PATTERN} characters`);
  const rawMax = c.req.query('max');
  let max = DEFAULT_MAX;
  if (rawMax !== undefined && rawMax !== '') {
    if (!/^[0-9]{1,15}$/.test(rawMax)) throw unprocessable(`max: must be a whole number, e.g. ${DEFAULT_MAX}`);
    max = Number(rawMax);
    if (max < 1) throw unprocessable('max: Maximum entries must be larger than 0');
  }
  const rawType = c.req.query('object_type') || 'all';
  if (!(OBJECT_TYPES as readonly string[]).includes(rawType)) throw unprocessable(`object_type must be one of the following options: ${OBJECT_TYPES.join(', ')}`);
  return { q, max: Math.min(max, MAX_SEARCH_RESULTS), objectType: rawType as ObjectType };
}

/** `ns1.example.com. hostmaster.example.com. 1 …` as PowerDNS stores it: `ns1.example.com hostmaster.example.com 1 …`. */
const undotted = (content: string) => content.replace(/\.(?=\s|$)/g, '');

export function searchDataApi(services: Services, identity: SoaIdentity) {
  const { zones, store } = services;

  /** The user's zones the scope admits, by name (as GET …/zones lists them). */
  async function zonesOf(userId: number, scope: Scope): Promise<DomainRow[]> {
    const only = scope.zones?.length ? scope.zones : undefined;
    const all: DomainRow[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await zones.page(userId, { offset, limit: 500 }, undefined, only);
      all.push(...page.rows);
      if (page.rows.length < 500) return all;
    }
  }

  return new Hono<PdnsEnv>().get('/search-data', async (c) => {
    const { q, max, objectType } = searchOf(c);
    const { user, scope } = c.get('principal');
    const match = globMatcher(q);
    const nameMatches = (fqdn: string) => match(fqdn) || match(`${fqdn}.`);
    const contentMatches = (content: string) => {
      if (match(content)) return true;
      const stored = undotted(content);
      return stored !== content && match(stored);
    };
    const admits = (name: string, type: string) => allowsName(scope, name) && allowsType(scope, type);
    const held = await zonesOf(user.id, scope);
    const out: object[] = [];
    const where = (zone: DomainRow) => ({ zone_id: zoneId(zone.name), zone: dotted(zone.name) });

    if (objectType === 'all' || objectType === 'zone') {
      let found = 0;
      for (const zone of held) {
        if (found === max) break;
        if (!nameMatches(zone.name)) continue;
        out.push({ object_type: 'zone', name: dotted(zone.name), zone_id: zoneId(zone.name) });
        found++;
      }
    }

    if (objectType === 'all' || objectType === 'record') {
      let found = 0;
      const add = (zone: DomainRow, name: string, type: string, ttl: number, content: string, disabled: boolean): boolean => {
        if (!admits(name, type) || !(nameMatches(toFqdn(name, zone.name)) || contentMatches(content))) return false;
        out.push({ object_type: 'record', name: absoluteName(name, zone.name), type, ttl, disabled, content, ...where(zone) });
        return ++found === max;
      };
      scan: for (const zone of held) {
        // The SOA is the zone's, built from its fields as the zone's GET shows it.
        if (add(zone, APEX, 'SOA', zone.minimum_ttl, soaContent(zone, identity), false)) break;
        for (let offset = 0; ; offset += PAGE) {
          const { rows } = await store.records.page(zone.id, {}, { offset, limit: PAGE });
          for (const r of rows) if (add(zone, r.name, r.record_type, r.ttl, contentToPdns(r.record_type, r.content), Boolean(r.disabled))) break scan;
          if (rows.length < PAGE) break;
        }
      }
    }

    if (objectType === 'all' || objectType === 'comment') {
      let found = 0;
      scan: for (const zone of held) {
        for (const note of await store.rrsetComments.byDomain(zone.id)) {
          if (!admits(note.name, note.record_type) || !(nameMatches(toFqdn(note.name, zone.name)) || match(note.content))) continue;
          out.push({ object_type: 'comment', name: absoluteName(note.name, zone.name), type: note.record_type, content: note.content, ...where(zone) });
          if (++found === max) break scan;
        }
      }
    }
    return c.json(out);
  });
}
