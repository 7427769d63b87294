/**
 * Records across every zone a credential may read: a search by full name, type
 * and content (search-query.ts), and a bulk change of what a search finds — replace its content,
 * or delete it (bulk-change.ts) — as a batch of one change set per zone.
 */
import { APEX } from '../../core/domain-name';
import { Invalid } from '../../core/errors';
import { rangeContains } from '../../core/ip-range';
import type { FoundRecord } from '../../store/types/across-zones';
import type { Page, ServiceStore, Window } from '../../store/types';
import type { WriteOptions } from '../changes/change-sets';
import type { Asker } from './asker';
import type { Batches, BatchResult, ZoneJob } from './batches';
import { bulkBuild, replacements, type BulkAction } from './bulk-change';
import { parseSearch, type ParsedSearch, type SearchInput } from './search-query';

/** Most records a CIDR search looks through for its page, and a bulk change may touch. */
export const MAX_BULK_RECORDS = 10_000;
const SCAN = 5_000;

const order = (a: FoundRecord, b: FoundRecord) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.record_type.localeCompare(b.record_type) || a.id - b.id);

export class RecordSearchService {
  constructor(
    private readonly store: ServiceStore,
    private readonly batches: Batches,
  ) {}

  /** A page of the records found, by zone, name, type and id; a CIDR search counts at most MAX_BULK_RECORDS. */
  async search(asker: Asker, q: SearchInput, w: Window): Promise<Page<FoundRecord>> {
    const p = parseSearch(asker, q);
    const userId = asker.allAccounts ? null : asker.userId;
    if (!p.cidr) return this.store.recordSearch.page(userId, p.search, w);
    const { rows } = await this.scanCidr(userId, p, MAX_BULK_RECORDS);
    return { rows: rows.slice(w.offset, w.offset + w.limit), total: rows.length };
  }

  /**
   * Replaces the content of every record a search finds with `replacement`, or deletes them, as
   * one change set per zone under one batch (the apex NS set, the service's, is never touched).
   */
  async bulk(asker: Asker, q: SearchInput & { action: 'replace' | 'delete'; replacement?: string }, opts: WriteOptions): Promise<BatchResult> {
    if (!q.name?.trim() && !q.type?.trim() && !q.content?.trim()) throw Invalid.field('content', 'give at least one of name, type and content to select records');
    if (q.action === 'replace' && (q.replacement === undefined || q.replacement.trim() === '')) throw Invalid.field('replacement', 'is required to replace content');
    const found = (await this.all(asker, parseSearch(asker, q))).filter((r) => r.name !== APEX || r.record_type !== 'NS');
    const byZone = new Map<number, FoundRecord[]>();
    for (const r of found) {
      const list = byZone.get(r.domain_id);
      if (list) list.push(r);
      else byZone.set(r.domain_id, [r]);
    }
    const how: BulkAction = q.action === 'delete' ? { action: 'delete' } : { action: 'replace', by: replacements(found, q.replacement!) };
    const jobs: ZoneJob[] = [];
    for (const rows of byZone.values()) {
      const zone = await this.store.domains.byId(rows[0]!.domain_id);
      if (zone) jobs.push({ zone, build: bulkBuild(rows, how) });
    }
    const what = q.action === 'delete' ? 'delete' : `replace with ${q.replacement!.trim().slice(0, 100)}`;
    return this.batches.run(asker.userId, jobs, { ...opts, comment: opts.comment || `bulk ${what}` });
  }

  /** Every record a CIDR search finds, by zone and name, up to `cap` (and whether there were more). */
  private async scanCidr(userId: number | null, p: ParsedSearch, cap: number): Promise<{ rows: FoundRecord[]; more: boolean }> {
    const rows: FoundRecord[] = [];
    let after: { content: string; id: number } | null = null;
    for (;;) {
      const slice = await this.store.recordSearch.scan(userId, p.search, after, SCAN);
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
  private async all(asker: Asker, p: ParsedSearch): Promise<FoundRecord[]> {
    if (p.cidr) {
      const { rows, more } = await this.scanCidr(asker.userId, p, MAX_BULK_RECORDS);
      if (more) throw Invalid.field('content', `matches more than ${MAX_BULK_RECORDS} records; narrow the search`);
      return rows;
    }
    const page = await this.store.recordSearch.page(asker.userId, p.search, { offset: 0, limit: MAX_BULK_RECORDS + 1 });
    if (page.rows.length > MAX_BULK_RECORDS) throw Invalid.field('content', `matches more than ${MAX_BULK_RECORDS} records; narrow the search`);
    return page.rows;
  }
}
