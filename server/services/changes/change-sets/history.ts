/** A zone's history: its change sets as the API shows them, newest first, and their pruning. */
import { NotFound } from '../../../core/errors';
import type { ChangeEntryRow, ChangeFilter, ChangeSetRow, DomainRow, Page, ReadRepos, Window } from '../../../store/types';
import type { RecordData } from '../zone-draft';
import type { ChangeSet, Source } from './types';

export type ChangeSetView = ChangeSet & { added_count: number; removed_count: number };

/** A stored change set with its records, as the API shows it. */
export function view(row: ChangeSetRow, entries: readonly ChangeEntryRow[]): ChangeSetView {
  const pick = (op: 0 | 1) =>
    entries
      .filter((e) => e.op === op)
      .map(({ name, record_type, ttl, content, disabled }): RecordData => (disabled ? { name, record_type, ttl, content, disabled: true } : { name, record_type, ttl, content }));
  return {
    id: row.id,
    serial_before: row.serial_before,
    serial_after: row.serial_after,
    created_at: row.created_at,
    source: row.source as Source,
    actor: { username: row.actor_username, credential: row.actor_credential },
    comment: row.comment,
    added: pick(1),
    removed: pick(0),
    added_count: row.added_count,
    removed_count: row.removed_count,
    settings: JSON.parse(row.settings) as Record<string, [unknown, unknown]>,
    ...(row.batch_id ? { batch: row.batch_id } : {}),
  };
}

/** A zone's change sets, newest first; each with at most `limit` records of each side. */
export async function changePage(repos: ReadRepos, zone: DomainRow, filter: ChangeFilter, w: Window, limit = 1000): Promise<Page<ChangeSetView>> {
  const page = await repos.changes.page(zone.id, filter, w);
  // Small change sets in one query; a big one (an import) shows the first `limit` of each side.
  const small = page.rows.filter((r) => r.added_count <= limit && r.removed_count <= limit);
  const entries = await repos.changes.entriesOf(small.map((r) => r.id));
  const rows = [];
  for (const row of page.rows) {
    const list = entries.get(row.id) ?? [...(await repos.changes.entries(row.id, limit, 0)), ...(await repos.changes.entries(row.id, limit, 1))];
    rows.push(view(row, list));
  }
  return { rows, total: page.total };
}

/** One change set of the zone, whole; NotFound when the zone has none with this id. */
export async function changeOf(repos: ReadRepos, zone: DomainRow, id: number): Promise<ChangeSetView> {
  const row = await repos.changes.byId(zone.id, id);
  if (!row) throw new NotFound(`no change ${id} in ${zone.name}`);
  return view(row, await repos.changes.entries(row.id));
}
