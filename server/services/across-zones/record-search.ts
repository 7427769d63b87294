/**
 * Records across every zone a credential may read: a search by full name, type
 * and content (exact, prefix or substring; an A/AAAA content may be a CIDR), and a bulk change of
 * what a search finds — replace its content, or delete it — as a batch of one change set per zone.
 */
import { APEX, MAX_NAME_LENGTH, normalizeZoneName } from '../../core/domain-name';
import { Invalid, RuleError } from '../../core/errors';
import { parseIpRange, rangeContains, type IpRange } from '../../core/ip-range';
import { recordType } from '../../core/record-types';
import type { FoundRecord, RecordSearch, TextMatch } from '../../store/template-types';
import type { Page, ServiceStore, Window } from '../../store/types';
import type { Batches, BatchResult } from './batches';
import type { Edit, WriteOptions } from '../changes/change-sets';
import type { Entry } from '../changes/zone-draft';
import type { Asker } from './templates';

/** Most records a CIDR search looks through for its page, and a bulk change may touch. */
export const MAX_BULK_RECORDS = 10_000;
const SCAN = 5_000;

export interface SearchInput {
  name?: string;
  type?: string;
  content?: string;
  match?: TextMatch;
  /** One zone, or (bulk) several. */
  zones?: readonly string[];
}

interface Parsed {
  search: RecordSearch;
  /** An A/AAAA content search by network. */
  cidr?: IpRange;
}

export function createRecordSearch(store: ServiceStore, batches: Batches) {
  function parse(asker: Asker, q: SearchInput): Parsed {
    const match = q.match ?? 'contains';
    const search: RecordSearch = {};
    if (q.name !== undefined && q.name.trim() !== '') {
      const term = q.name.trim().toLowerCase().replace(/\.$/, '');
      if (term.length > MAX_NAME_LENGTH) throw Invalid.field('name', `must be at most ${MAX_NAME_LENGTH} characters`);
      search.name = { term, match };
    }
    let type: string | undefined;
    if (q.type !== undefined && q.type.trim() !== '') {
      try {
        type = recordType(q.type.trim().toUpperCase()).type;
      } catch (e) {
        if (e instanceof RuleError) throw Invalid.field('type', e.message);
        throw e;
      }
      search.types = [type];
    }
    let cidr: IpRange | undefined;
    const content = q.content?.trim();
    if (content) {
      if (content.length > 4096) throw Invalid.field('content', 'must be at most 4096 characters');
      if (content.includes('/') && /^[0-9a-fA-F.:]+\/[0-9]+$/.test(content)) {
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
      } else {
        let term = content;
        if (match === 'exact') {
          // The content as stored: canonical for its type (an address in its one spelling).
          const types = type ? [type] : /^[0-9a-fA-F.:]+$/.test(content) && (content.includes(':') || /^[0-9.]+$/.test(content)) ? [content.includes(':') ? 'AAAA' : 'A'] : [];
          for (const t of types) {
            try {
              term = recordType(t).normalize(content);
            } catch {
              /* left as given: it matches nothing stored, which is the right answer */
            }
          }
        }
        search.content = { term, match };
      }
    }
    const zones: string[] = [];
    for (const [i, z] of (q.zones ?? []).entries()) {
      try {
        zones.push(normalizeZoneName(z));
      } catch (e) {
        if (e instanceof RuleError) throw Invalid.field(q.zones!.length === 1 ? 'zone' : `zones.${i}`, e.message);
        throw e;
      }
    }
    // A token scoped to zones searches only those.
    const allowed = asker.scope?.zones?.length ? asker.scope.zones : undefined;
    if (zones.length > 0) search.zones = allowed ? zones.filter((z) => allowed.includes(z)) : zones;
    else if (allowed) search.zones = allowed;
    return { search, cidr };
  }

  const order = (a: FoundRecord, b: FoundRecord) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.record_type.localeCompare(b.record_type) || a.id - b.id);

  /** Every record a CIDR search finds, by zone and name, up to `cap` (and whether there were more). */
  async function scanCidr(userId: number, p: Parsed, cap: number): Promise<{ rows: FoundRecord[]; more: boolean }> {
    const rows: FoundRecord[] = [];
    let after: { content: string; id: number } | null = null;
    for (;;) {
      const slice = await store.recordSearch.scan(userId, p.search, after, SCAN);
      for (const r of slice) {
        if (!rangeContains(p.cidr!, r.content)) continue;
        if (rows.length >= cap) return { rows: rows.sort(order), more: true };
        rows.push(r);
      }
      if (slice.length < SCAN) return { rows: rows.sort(order), more: false };
      const last = slice[slice.length - 1]!;
      after = { content: last.content, id: last.id };
    }
  }

  /** Every record a search finds (at most MAX_BULK_RECORDS: more is a 400 that asks to narrow it). */
  async function all(asker: Asker, p: Parsed): Promise<FoundRecord[]> {
    if (p.cidr) {
      const { rows, more } = await scanCidr(asker.userId, p, MAX_BULK_RECORDS);
      if (more) throw Invalid.field('content', `matches more than ${MAX_BULK_RECORDS} records; narrow the search`);
      return rows;
    }
    const page = await store.recordSearch.page(asker.userId, p.search, { offset: 0, limit: MAX_BULK_RECORDS + 1 });
    if (page.rows.length > MAX_BULK_RECORDS) throw Invalid.field('content', `matches more than ${MAX_BULK_RECORDS} records; narrow the search`);
    return page.rows;
  }

  return {
    /** A page of the records found, by zone, name, type and id; a CIDR search counts at most MAX_BULK_RECORDS. */
    async search(asker: Asker, q: SearchInput, w: Window): Promise<Page<FoundRecord>> {
      const p = parse(asker, q);
      if (!p.cidr) return store.recordSearch.page(asker.userId, p.search, w);
      const { rows } = await scanCidr(asker.userId, p, MAX_BULK_RECORDS);
      return { rows: rows.slice(w.offset, w.offset + w.limit), total: rows.length };
    },

    /**
     * Replaces the content of every record a search finds with `replacement`, or deletes them, as
     * one change set per zone under one batch (the apex NS set, the service's, is never touched).
     */
    async bulk(asker: Asker, q: SearchInput & { action: 'replace' | 'delete'; replacement?: string }, opts: WriteOptions): Promise<BatchResult> {
      if (!q.name?.trim() && !q.type?.trim() && !q.content?.trim()) throw Invalid.field('content', 'give at least one of name, type and content to select records');
      if (q.action === 'replace' && (q.replacement === undefined || q.replacement.trim() === '')) throw Invalid.field('replacement', 'is required to replace content');
      const found = (await all(asker, parse(asker, q))).filter((r) => r.name !== APEX || r.record_type !== 'NS');
      const byZone = new Map<number, FoundRecord[]>();
      for (const r of found) {
        const list = byZone.get(r.domain_id);
        if (list) list.push(r);
        else byZone.set(r.domain_id, [r]);
      }
      // The replacement in each type's canonical form, checked once per type before anything is tried.
      const replacement = new Map<string, string>();
      if (q.action === 'replace') {
        for (const t of new Set(found.map((r) => r.record_type))) {
          try {
            replacement.set(t, recordType(t).normalize(q.replacement!.trim()));
          } catch (e) {
            if (e instanceof RuleError) throw Invalid.field('replacement', `is not ${t} content: ${e.message}`);
            throw e;
          }
        }
      }
      const jobs = [];
      for (const rows of byZone.values()) {
        const zone = await store.domains.byId(rows[0]!.domain_id);
        if (!zone) continue;
        const build = async ({ draft }: Edit) => {
          await draft.load(new Set(rows.map((r) => r.name)));
          const sets = new Map<string, { name: string; type: string; contents: Set<string> }>();
          for (const r of rows) {
            const k = `${r.name} ${r.record_type}`;
            if (!sets.has(k)) sets.set(k, { name: r.name, type: r.record_type, contents: new Set() });
            sets.get(k)!.contents.add(r.content);
          }
          for (const s of sets.values()) {
            const current = draft.rrset(s.name, s.type);
            const ttl = current[0]?.ttl ?? 0;
            let next: Entry[];
            if (q.action === 'delete') next = current.filter((e) => !s.contents.has(e.content));
            else {
              const to = replacement.get(s.type)!;
              const seen = new Set<string>();
              next = [];
              for (const e of current) {
                const content = s.contents.has(e.content) ? to : e.content;
                if (seen.has(content)) continue;
                seen.add(content);
                next.push({ content, ttl: e.ttl, disabled: e.disabled });
              }
            }
            draft.put(s.name, s.type, next, ttl);
          }
        };
        jobs.push({ zone, build });
      }
      const what = q.action === 'delete' ? 'delete' : `replace with ${q.replacement!.trim().slice(0, 100)}`;
      return batches.run(asker.userId, jobs, { ...opts, comment: opts.comment || `bulk ${what}` });
    },
  };
}

export type RecordSearchService = ReturnType<typeof createRecordSearch>;
