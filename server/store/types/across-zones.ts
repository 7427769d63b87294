/** Row shapes and repos of templates and searches across zones (migration 0015). */
import type { Page, Window } from './common';
import type { DomainRow, ListedRecord } from './zones';

/** One RRset of a template; names and contents may hold `{zone}` and `{var}` placeholders. */
export interface TemplateRRset {
  name: string;
  record_type: string;
  ttl: number;
  records: string[];
}

export interface TemplateRow {
  id: number;
  /** Who created it; the owner too when `team_id` is null. */
  user_id: number;
  /** The team that owns it: members read it, owners and admins change it. */
  team_id: number | null;
  name: string;
  description: string;
  rrsets: TemplateRRset[];
  created_at: string;
  updated_at: string;
}

export interface ZoneTemplateRow {
  domain_id: number;
  template_id: number;
  variables: Record<string, string>;
  applied_at: string;
}

export type TextMatch = 'exact' | 'prefix' | 'contains';

/** What a search across zones looks for; every part given must hold. */
export interface RecordSearch {
  /** The record's full name (`www.example.com`, the apex is the zone's name), lower case. */
  name?: { term: string; match: TextMatch };
  types?: readonly string[];
  /** The content as stored (canonical); `contains` and `prefix` ignore case. */
  content?: { term: string; match: TextMatch };
  /** Content that starts with this text exactly (an address network's whole octets): a range of the content index. */
  contentPrefix?: string;
  /** Only these zones (a token scoped to zones, or the caller's choice). */
  zones?: readonly string[];
}

export type FoundRecord = ListedRecord & { domain_id: number; zone: string };

export interface TemplateRepos {
  templates: {
    insert(row: Omit<TemplateRow, 'id'>): Promise<TemplateRow>;
    byId(id: number): Promise<TemplateRow | undefined>;
    /** The template of this owner (a team, else the user alone) by name. */
    byName(owner: { user_id: number; team_id: number | null }, name: string): Promise<TemplateRow | undefined>;
    /** The templates the user may read (theirs, and their teams'), by name. */
    page(userId: number, w: Window): Promise<Page<TemplateRow>>;
    update(id: number, patch: Partial<Pick<TemplateRow, 'name' | 'description' | 'rrsets' | 'updated_at'>>): Promise<TemplateRow>;
    delete(id: number): Promise<boolean>;
  };
  zoneTemplates: {
    set(row: ZoneTemplateRow): Promise<void>;
    ofDomain(domainId: number): Promise<ZoneTemplateRow | undefined>;
    /** The zones that came from the template, by name. */
    zonesOf(templateId: number): Promise<Array<{ zone: DomainRow; variables: Record<string, string>; applied_at: string }>>;
  };
  recordSearch: {
    /** A page of the records the user may read (null: every account's, for an administrator) that match, by zone, name, type and id. */
    page(userId: number | null, search: RecordSearch, w: Window): Promise<Page<FoundRecord>>;
    /** The matching records after `after`, by content and id, at most `limit` (a CIDR search filters them further; the content index serves the order). */
    scan(userId: number | null, search: RecordSearch, after: { content: string; id: number } | null, limit: number): Promise<FoundRecord[]>;
  };
}
