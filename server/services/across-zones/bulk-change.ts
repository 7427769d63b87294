/**
 * A bulk change of what a search found, in one zone: the found records' content replaced (in each
 * type's canonical form; a record that would then repeat another is dropped), or the found records
 * deleted; the rest of each RRset stays as it is.
 */
import { Invalid, RuleError } from '../../core/errors';
import { recordType } from '../../core/record-types';
import type { FoundRecord } from '../../store/types/across-zones';
import type { Edit } from '../changes/change-sets';
import type { Entry } from '../changes/zone-draft';

export type BulkAction = { action: 'delete' } | { action: 'replace'; by: ReadonlyMap<string, string> };

/** The replacement in each found type's canonical form, checked once per type before anything is tried (400 naming `replacement`). */
export function replacements(found: readonly FoundRecord[], replacement: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of new Set(found.map((r) => r.record_type))) {
    try {
      out.set(t, recordType(t).normalize(replacement.trim()));
    } catch (e) {
      if (e instanceof RuleError) throw Invalid.field('replacement', `is not ${t} content: ${e.message}`);
      throw e;
    }
  }
  return out;
}

/** An RRset's entries once the found contents are deleted or replaced. */
function changed(current: readonly Entry[], found: ReadonlySet<string>, how: BulkAction, type: string): Entry[] {
  if (how.action === 'delete') return current.filter((e) => !found.has(e.content));
  const to = how.by.get(type)!;
  const seen = new Set<string>();
  const next: Entry[] = [];
  for (const e of current) {
    const content = found.has(e.content) ? to : e.content;
    if (seen.has(content)) continue;
    seen.add(content);
    next.push({ content, ttl: e.ttl, disabled: e.disabled });
  }
  return next;
}

/** The change-set builder of one zone's part of a bulk change: `rows` are the records found in it. */
export function bulkBuild(rows: readonly FoundRecord[], how: BulkAction) {
  return async ({ draft }: Edit): Promise<void> => {
    await draft.load(new Set(rows.map((r) => r.name)));
    const sets = new Map<string, { name: string; type: string; contents: Set<string> }>();
    for (const r of rows) {
      const k = `${r.name} ${r.record_type}`;
      if (!sets.has(k)) sets.set(k, { name: r.name, type: r.record_type, contents: new Set() });
      sets.get(k)!.contents.add(r.content);
    }
    for (const s of sets.values()) {
      const current = draft.rrset(s.name, s.type);
      draft.put(s.name, s.type, changed(current, s.contents, how, s.type), current[0]?.ttl ?? 0);
    }
  };
}
